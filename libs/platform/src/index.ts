export * from './config';
export * from './logging';
export * from './metrics';
export * from './health';
export * from './openapi31';
export * from './http-app';
export * from './shutdown';
export * from './zurich-time';
