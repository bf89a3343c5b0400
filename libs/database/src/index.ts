export * from './migrations';
export * from './typeorm-options';
export * from './open-database';
export * from './migrate-command';
export * from './app-process';
export * from './embedded-postgres';
export * from './page-with-total';
export * from './client';
