export * from './test-database';
export * from './global-setup';
export * from './raw-http';
export * from './free-port';
export * from './throwaway-cluster';
export * from './fuzz';
export * from './wait-for';
