import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where each offer is (issue 62; docs/decisions.md D-88): `search_offer_places`, one row per
 * placed offer, the gazetteer ids of the places it is in (each with every place containing it)
 * and the points of the places its text names as big-endian 4-byte floats, latitude then
 * longitude (`float4send`), so that a replica aggregates them into byte strings as it does the
 * posting blocks. `search_stats.places_version` is the version of the gazetteer and the rules the
 * places were computed with (a reindex finding another recomputes every offer's, without
 * re-embedding), `places_generation` the generation they were written for (a reindex of the
 * previous release writes none: a replica then loads no places until a reindex of this release
 * has placed every offer).
 *
 * Expand only: the previous release never reads the table; its reindex deletes a removed
 * offer's row through the foreign key and leaves `places_generation` behind. Nothing is computed
 * here (the gazetteer is the service's code): the first reindex of this release places every offer.
 */
export class AddOfferPlaces1796450000000 implements MigrationInterface {
  name = 'AddOfferPlaces1796450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE search_offer_places (
         offer_id text COLLATE "C" PRIMARY KEY REFERENCES travel_offers (id) ON DELETE CASCADE,
         places text[] COLLATE "C" NOT NULL,
         points bytea NOT NULL,
         CONSTRAINT search_offer_places_points_check CHECK (length(points) % 8 = 0)
       )`,
    );
    await queryRunner.query('ALTER TABLE search_stats ADD COLUMN places_version text');
    await queryRunner.query('ALTER TABLE search_stats ADD COLUMN places_generation bigint');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE search_stats DROP COLUMN places_generation');
    await queryRunner.query('ALTER TABLE search_stats DROP COLUMN places_version');
    await queryRunner.query('DROP TABLE search_offer_places');
  }
}
