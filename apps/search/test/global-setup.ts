import { setUpTestDatabases } from '@rt/testing';
import { SEARCH_EXTENSIONS } from '../src/database/extensions';
import { searchMigrations } from '../src/database/migrations';

export default () =>
  setUpTestDatabases({ app: 'search', migrations: searchMigrations, extensions: SEARCH_EXTENSIONS });
