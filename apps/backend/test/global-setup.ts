import { setUpTestDatabases } from '@rt/testing';
import { backendMigrations } from '../src/database/migrations';

export default () => setUpTestDatabases({ app: 'backend', migrations: backendMigrations, extensions: [] });
