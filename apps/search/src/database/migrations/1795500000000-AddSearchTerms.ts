import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The vocabulary of the index: every lexeme of `travel_offers.search_vector` with the number of
 * offers holding it (`ts_stat`), refreshed by each reindex in its apply transaction, with a
 * trigram index (contrib `pg_trgm`). A hybrid search looks up the lexemes closest in spelling to
 * its words ("santorni" → "santorini") and adds the offers holding the rarer of them to the
 * semantic candidates with exact distances (sql/semantic-side.ts). Raw SQL, not an entity, like
 * the index tables.
 */
export class AddSearchTerms1795500000000 implements MigrationInterface {
  name = 'AddSearchTerms1795500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await queryRunner.query(
      `CREATE TABLE search_terms (
         term text COLLATE "C" PRIMARY KEY,
         documents integer NOT NULL
       )`,
    );
    await queryRunner.query(
      'CREATE INDEX search_terms_trigram_idx ON search_terms USING gin (term gin_trgm_ops)',
    );
    await queryRunner.query(
      `INSERT INTO search_terms (term, documents)
       SELECT word, ndoc FROM ts_stat('SELECT search_vector FROM travel_offers')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE search_terms');
    await queryRunner.query('DROP EXTENSION IF EXISTS pg_trgm');
  }
}
