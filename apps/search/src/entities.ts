import { ReindexRun } from './indexes/reindex/reindex-run.entity';

/**
 * Every search entity; the app module and the migration CLI read the same list. The index tables
 * (`travel_offers`, `travel_offers_staging`) are raw SQL only (listing/travels.repository.ts,
 * reindex/reindex.repository.ts) and deliberately not entities: the ORM would drop what it cannot
 * express.
 */
export const searchEntities: Function[] = [ReindexRun];
