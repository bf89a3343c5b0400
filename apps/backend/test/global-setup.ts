import { setUpTestDatabases } from '@rt/testing';
import { BACKEND_EXTENSIONS } from '../src/database/extensions';
import { backendMigrations } from '../src/database/migrations';

export default () =>
  setUpTestDatabases({ app: 'backend', migrations: backendMigrations, extensions: BACKEND_EXTENSIONS });
