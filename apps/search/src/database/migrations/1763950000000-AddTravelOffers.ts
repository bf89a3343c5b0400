import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The search index: one row per offer (hand-written: the ORM cannot express the generated
 * tsvector, GIN, GiST and HNSW indexes; the tables stay out of the entities on purpose).
 *
 * - Text search configuration `travel_search`: `simple` (no stemming, no stop words: the catalogue
 *   mixes French, German and English, and a stemmer of one language mangles the other two) with
 *   `unaccent` in front, so "Zurich" finds "Zürich" and "chateau" finds "Château". `to_tsvector`
 *   with an explicit configuration is IMMUTABLE, so the weighted vector is a generated column.
 *   Measurements behind the choice: docs/benchmarks.md, "Text search configuration".
 * - `embedding vector(384)`: the default EMBEDDING_DIMENSION. The service refuses to start when the
 *   configured dimension differs; another dimension is a new migration (apps/search/README.md).
 * - `departure_days`: the departure dates as a multirange of days, GiST-indexed, so the `dates`
 *   filter (any departure in any range) and its exact count are served by one index.
 * - Narrow rows (toast_tuple_target, STORAGE MAIN for filtered columns): see below and
 *   docs/benchmarks.md.
 * - `id` sorts in byte order (`COLLATE "C"`), the same on every server and in the embedded one.
 * - `travel_offers_staging`: where a reindex stages the new and changed records (unlogged: rebuilt
 *   by the next reindex anyway) before one transaction applies them to `travel_offers`.
 */
export class AddTravelOffers1763950000000 implements MigrationInterface {
  name = 'AddTravelOffers1763950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS unaccent');
    await queryRunner.query('CREATE TEXT SEARCH CONFIGURATION travel_search (COPY = simple)');
    await queryRunner.query(
      `ALTER TEXT SEARCH CONFIGURATION travel_search
         ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH unaccent, simple`,
    );
    await queryRunner.query(`
      CREATE TABLE travel_offers (
        id text COLLATE "C" NOT NULL,
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        destination_code text,
        destination_name text,
        categories text[] NOT NULL DEFAULT '{}',
        rating double precision,
        duration double precision,
        next_departure timestamp(0) without time zone,
        departure_dates text[] NOT NULL DEFAULT '{}',
        departure_days datemultirange NOT NULL DEFAULT '{}',
        discount_club boolean NOT NULL,
        seaside boolean NOT NULL,
        is_valid boolean NOT NULL,
        record jsonb NOT NULL,
        embedding vector(384) NOT NULL,
        content_hash text NOT NULL,
        indexed_at timestamptz NOT NULL DEFAULT now(),
        search_vector tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('travel_search'::regconfig, name), 'A')
          || setweight(to_tsvector('travel_search'::regconfig, coalesce(destination_name, '')), 'B')
          || setweight(to_tsvector('travel_search'::regconfig, coalesce(description, '')), 'C')
        ) STORED,
        CONSTRAINT travel_offers_pkey PRIMARY KEY (id)
      ) WITH (toast_tuple_target = 256)`);
    // Narrow heap rows: the record, the embedding, the text and its vector go out of line (the
    // toast_tuple_target above), so exact counts scan about 40 MB for 100,000 offers instead of
    // 700 MB. The columns the filters read stay in the row (MAIN: compressed if need be, never
    // moved out), so a filter never fetches them from the TOAST table.
    await queryRunner.query(
      'ALTER TABLE travel_offers ALTER COLUMN departure_days SET STORAGE MAIN, ALTER COLUMN categories SET STORAGE MAIN',
    );
    // Filters.
    await queryRunner.query(
      'CREATE INDEX travel_offers_destination_idx ON travel_offers (destination_code, id)',
    );
    await queryRunner.query(
      'CREATE INDEX travel_offers_categories_idx ON travel_offers USING gin (categories)',
    );
    await queryRunner.query(
      'CREATE INDEX travel_offers_departure_days_idx ON travel_offers USING gist (departure_days)',
    );
    await queryRunner.query('CREATE INDEX travel_offers_is_valid_idx ON travel_offers (is_valid, id)');
    await queryRunner.query(
      'CREATE INDEX travel_offers_discount_club_idx ON travel_offers (discount_club, id)',
    );
    await queryRunner.query('CREATE INDEX travel_offers_seaside_idx ON travel_offers (seaside, id)');
    // Sorts: nulls last in both directions, `id` ascending as the tie-breaker.
    for (const [column, short] of [
      ['rating', 'rating'],
      ['next_departure', 'departure'],
      ['duration', 'duration'],
    ]) {
      await queryRunner.query(
        `CREATE INDEX travel_offers_${short}_asc_idx ON travel_offers (${column} ASC NULLS LAST, id)`,
      );
      await queryRunner.query(
        `CREATE INDEX travel_offers_${short}_desc_idx ON travel_offers (${column} DESC NULLS LAST, id)`,
      );
    }
    // Search (part 2 ranks with them).
    await queryRunner.query(
      'CREATE INDEX travel_offers_search_vector_idx ON travel_offers USING gin (search_vector)',
    );
    await queryRunner.query(
      'CREATE INDEX travel_offers_embedding_idx ON travel_offers USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)',
    );

    await queryRunner.query(`
      CREATE UNLOGGED TABLE travel_offers_staging (
        id text COLLATE "C" NOT NULL,
        content_hash text NOT NULL,
        name text,
        slug text,
        description text,
        destination_code text,
        destination_name text,
        categories text[],
        rating double precision,
        duration double precision,
        next_departure timestamp(0) without time zone,
        departure_dates text[],
        departure_days datemultirange,
        discount_club boolean,
        seaside boolean,
        is_valid boolean,
        record jsonb,
        embedding vector(384),
        CONSTRAINT travel_offers_staging_pkey PRIMARY KEY (id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE travel_offers_staging');
    await queryRunner.query('DROP TABLE travel_offers');
    await queryRunner.query('DROP TEXT SEARCH CONFIGURATION travel_search');
    await queryRunner.query('DROP EXTENSION IF EXISTS unaccent');
  }
}
