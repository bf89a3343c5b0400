export * from './pagination';
export * from './query-boolean';
export * from './error-responses';
export * from './fields';
export * from './query-fields';
export { CheckRule } from './field-rule';
export * from './demo-categories';
export * from './seeded-random';
