export * from './test-database';
export * from './global-setup';
