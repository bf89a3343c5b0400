#!/usr/bin/env bash
# For each service: migrate an empty database on the PostgreSQL server of TEST_DATABASE_URL, then
# ask TypeORM to generate a migration from the entities. Any difference means an entity changed
# without its migration, and fails the build.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${TEST_DATABASE_URL:?TEST_DATABASE_URL must name the PostgreSQL server}"

server_psql() { psql -X -q -v ON_ERROR_STOP=1 "$TEST_DATABASE_URL" -c "$1"; }
database_url() { node -e 'const u = new URL(process.argv[1]); u.pathname = "/" + process.argv[2]; console.log(u.toString())' "$TEST_DATABASE_URL" "$1"; }

for app in backend search; do
  db="rt_ci_schema_${app}"
  server_psql "DROP DATABASE IF EXISTS ${db} WITH (FORCE)"
  server_psql "CREATE DATABASE ${db}"
  url=$(database_url "$db")
  echo "[check-migrations] ${app}: migrating an empty database"
  DATABASE_URL="$url" pnpm --filter "$app" --silent migration:run
  echo "[check-migrations] ${app}: entities and migrations must agree"
  DATABASE_URL="$url" pnpm --filter "$app" --silent migration:check
  server_psql "DROP DATABASE IF EXISTS ${db} WITH (FORCE)"
done
