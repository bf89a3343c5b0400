-- Written by `pnpm sql:snapshots` (apps/search/src/cli/sql-snapshots.ts); do not edit.
-- the pgvector settings of a search's session, given once per connection, pgvector >= 0.8 (sql/hnsw-session-settings.ts)
-- request: GET /travels?search=santorini+beach
-- settings: APP_ENV=local EMBEDDING_PROVIDER=builtin
-- values:
--   $1 = "hnsw.ef_search"
--   $2 = "100"
--   $3 = "hnsw.iterative_scan"
--   $4 = "relaxed_order"
--   $5 = "hnsw.max_scan_tuples"
--   $6 = "5000"

SELECT
  set_config($1, $2, false),
  set_config($3, $4, false),
  set_config($5, $6, false)
