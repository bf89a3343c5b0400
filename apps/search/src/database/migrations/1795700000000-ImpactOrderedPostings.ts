import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Impact-ordered postings (issue 24; apps/search/README.md, "The text side"): each posting stores
 * its BM25 term-frequency part, `impact` = tf·(k1 + 1) / (tf + k1·(1 − b + b·dl / L)) with k1 1.2,
 * b 0.75 and L the `reference_length` of `search_stats` (the average weighted length when the
 * postings were last written in full), instead of `tf` and `dl`. The statistics that change with
 * every reindex (idf) stay at query time; the length normalisation changes only when the average
 * drifts (a reindex then rewrites every posting).
 *
 * - `search_postings (term, offer_id, impact)`, written in offer order (an offer's postings share
 *   one or two heap pages: the text side completes a candidate's score by its offer);
 * - `search_postings_term_impact_idx (term, impact DESC, offer_id)`: a term's best postings first,
 *   read by index-only scans, so a search stops reading once no unread posting can matter;
 * - `search_postings_offer_idx (offer_id)`: deletions and score completion by offer;
 * - `search_lengths (offer_id, length)`: each offer's weighted length (was repeated in every posting).
 */
export class ImpactOrderedPostings1795700000000 implements MigrationInterface {
  name = 'ImpactOrderedPostings1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE search_lengths (
        offer_id text COLLATE "C" PRIMARY KEY,
        length real NOT NULL
      )`);
    await queryRunner.query(
      'INSERT INTO search_lengths (offer_id, length) SELECT offer_id, max(dl) FROM search_postings GROUP BY offer_id',
    );
    await queryRunner.query('ALTER TABLE search_stats ADD COLUMN reference_length real');
    await queryRunner.query('UPDATE search_stats SET reference_length = average_length');
    await queryRunner.query('ALTER TABLE search_stats ALTER COLUMN reference_length SET NOT NULL');
    await queryRunner.query('ALTER TABLE search_postings RENAME TO search_postings_tf');
    await queryRunner.query(`
      CREATE TABLE search_postings (
        term text COLLATE "C" NOT NULL,
        offer_id text COLLATE "C" NOT NULL,
        impact real NOT NULL
      )`);
    await queryRunner.query(`
      INSERT INTO search_postings (term, offer_id, impact)
      SELECT p.term, p.offer_id, (p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.dl / s.reference_length)))::real
      FROM search_postings_tf p, search_stats s ORDER BY p.offer_id, p.term`);
    await queryRunner.query('DROP TABLE search_postings_tf');
    await queryRunner.query(
      'CREATE INDEX search_postings_term_impact_idx ON search_postings (term, impact DESC, offer_id)',
    );
    await queryRunner.query('CREATE INDEX search_postings_offer_idx ON search_postings (offer_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // tf comes back from impact and the offer's length (the inverse of the formula above).
    await queryRunner.query('ALTER TABLE search_postings RENAME TO search_postings_impact');
    await queryRunner.query(
      'ALTER INDEX search_postings_offer_idx RENAME TO search_postings_impact_offer_idx',
    );
    await queryRunner.query(`
      CREATE TABLE search_postings (
        term text COLLATE "C" NOT NULL,
        offer_id text COLLATE "C" NOT NULL,
        tf real NOT NULL,
        dl real NOT NULL
      )`);
    await queryRunner.query(`
      INSERT INTO search_postings (term, offer_id, tf, dl)
      SELECT p.term, p.offer_id,
        (p.impact * 1.2 * (0.25 + 0.75 * l.length / s.reference_length) / (2.2 - p.impact))::real, l.length
      FROM search_postings_impact p JOIN search_lengths l USING (offer_id), search_stats s`);
    await queryRunner.query('DROP TABLE search_postings_impact');
    await queryRunner.query(
      'CREATE INDEX search_postings_term_idx ON search_postings (term, offer_id) INCLUDE (tf, dl)',
    );
    await queryRunner.query('CREATE INDEX search_postings_offer_idx ON search_postings (offer_id)');
    await queryRunner.query('ALTER TABLE search_stats DROP COLUMN reference_length');
    await queryRunner.query('DROP TABLE search_lengths');
  }
}
