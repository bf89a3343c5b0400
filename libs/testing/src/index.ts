export * from './test-database';
export * from './global-setup';
export * from './raw-http';
