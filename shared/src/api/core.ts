// Request and answer schemas of the api core (issue 3): auth, accounts, roles and menus.
export * from './common';
export * from './auth';
export * from './account';
export * from './role';
export * from './work-orders';
export * from './chat';
export * from './message';
export * from './resident';
export * from './upload';
export * from './person';
export * from './realtime';
export * from './system';
export * from './announcements';
export * from './endpoint';
export * from './endpoints';
