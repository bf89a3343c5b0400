-- Runs once, when the compose stack's PostgreSQL volume is first created: one database per
-- service, as in a deployment. The services' migrations create the extensions they need
-- (vector, unaccent, pg_trgm), which this image ships.
CREATE DATABASE backend;
CREATE DATABASE search;
