export * from './openapi';
export * from './payloads';
export * from './schema-arbitraries';
export * from './requests';
export * from './contract-validator';
export * from './state-snapshot';
export * from './fuzz-runner';
