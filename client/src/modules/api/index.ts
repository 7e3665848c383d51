export * from './ApiError';
export * from './http';
export * from './http-hooks';
export * from './auth-api';
export * from './person-api';
export * from './message-api';
export * from './work-orders-api';
export * from './call';
