export * from './ApiError';
export * from './http';
export * from './http-hooks';
export * from './auth-api';
export * from './person-api';
export * from './message-api';
export * from './complaint-api';
export * from './call';
