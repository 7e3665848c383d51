export * from './constants';
export * from './enums';
export * from './envelope';
export * from './events';
export * from './permissions';
export * from './routes';
export * from './api/core';
export * from './log-redaction';
