// The whole domain model (issue 3). Table names are snake_case (casing: 'snake_case').
export * from './tenancy';
export * from './property';
export * from './people';
export * from './access';
export * from './work';
export * from './notices';
export * from './im';
export * from './misc';
export * from './realtime';
export * from './dashboard';
export * from './checkin';
export * from './audit';
