export * from './tracing-settings';
export * from './start-tracing';
export * from './spans';
