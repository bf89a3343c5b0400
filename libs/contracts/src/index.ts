export * from './pagination';
export * from './query-boolean';
export * from './error-responses';
