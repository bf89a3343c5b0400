import type { DataSource } from 'typeorm';
import { ALL_FIELDS } from '../../query/analysis/similarity';
import { OfferFilterColumnsBuilder } from './offer-filters';
import { emptyOfferPlaces, OFFER_PLACES_SQL, OFFER_POINTS_SQL, offerPlacesOf } from './offer-places';
import type { OfferPlaces } from './offer-places';
import { languageCodeOf, TextIndex } from './text-index';
import type { TermPostings } from './text-index';

/** What a load read, for the logs and the metrics. */
export interface TextIndexLoad {
  index: TextIndex;
  /** Whether the postings were read from the blocks (else aggregated from search_postings). */
  fromBlocks: boolean;
  /** Whether the offers' places were read (else none: not written for this generation). */
  withPlaces: boolean;
  /** Milliseconds from the first statement to the built index. */
  milliseconds: number;
}

/**
 * Each term's postings as one row of two byte strings in offer-ordinal order (an offer's ordinal is
 * its position among the catalogue's ids in byte order): the ordinals as big-endian 4-byte integers
 * (`int4send`) and the impacts as big-endian 4-byte floats (`float4send`), aggregated from
 * `search_postings`: what the reindex stores in `search_posting_blocks`, and what a load reads
 * when the blocks are not this generation's; and the fields each posting's term occurs in, a byte
 * each (`fields`, FIELD_BITS; ALL_FIELDS for a posting written before AddPostingFields).
 */
export const POSTING_BLOCKS_SQL = `SELECT p.term, string_agg(int4send(o.ordinal), ''::bytea ORDER BY o.ordinal) AS ordinals,
       string_agg(float4send(p.impact), ''::bytea ORDER BY o.ordinal) AS impacts,
       string_agg(set_byte('\\x00'::bytea, 0, coalesce(p.fields, ${ALL_FIELDS})), ''::bytea ORDER BY o.ordinal) AS fields
     FROM search_postings p
     JOIN (SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS ordinal FROM travel_offers) o
       ON o.id = p.offer_id
     GROUP BY p.term`;

/**
 * Loads the text index from PostgreSQL, the single source of truth, in one read-only snapshot
 * (REPEATABLE READ: the offers, the postings and the generation of one catalogue, also while a
 * reindex commits): the offers' ids in byte order with their filterable fields, then every term's
 * postings as the reindex wrote them for this generation (`search_posting_blocks`: ordinals and
 * impacts as big-endian 4-byte values, one row per term). Blocks marked for another generation
 * (`blocks_generation`: a reindex of a release that does not write them ran during a rolling
 * release) are not read: the postings are aggregated the same way from `search_postings` instead,
 * which takes longer (`fromBlocks` false). Then the offers' places (`search_offer_places`, D-88)
 * when they were written for this generation (`places_generation`), else none (`withPlaces`
 * false: a reindex of a release before AddOfferPlaces wrote the generation).
 */
export async function loadTextIndex(dataSource: DataSource): Promise<TextIndexLoad> {
  const started = performance.now();
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const stats = (await runner.query(
        `SELECT generation::text AS generation, blocks_generation::text AS blocks,
           places_generation::text AS places, offers FROM search_stats`,
      )) as { generation: string; blocks: string | null; places: string | null; offers: number }[];
      const fromBlocks = stats.length === 0 || stats[0].blocks === stats[0].generation;
      const withPlaces = stats.length > 0 && stats[0].places === stats[0].generation;
      const offers = (await runner.query(
        `SELECT id, destination_code, categories, departure_days::text AS departure_days, is_valid,
           discount_club, seaside, record ->> 'language' AS language
         FROM travel_offers ORDER BY id`,
      )) as OfferRow[];
      const ordinals = new Map<string, number>();
      const filters = new OfferFilterColumnsBuilder();
      const ids: string[] = [];
      const languages = new Uint8Array(offers.length);
      for (const offer of offers) {
        languages[ids.length] = languageCodeOf(offer.language);
        if (ids.length % OFFERS_PER_YIELD === OFFERS_PER_YIELD - 1) await yieldToEventLoop();
        ordinals.set(offer.id, ids.length);
        ids.push(offer.id);
        filters.add({
          destination: offer.destination_code,
          categories: offer.categories,
          departureDays: offer.departure_days,
          isValid: offer.is_valid,
          discountClub: offer.discount_club,
          seaside: offer.seaside,
        });
      }
      const rows = (await runner.query(
        fromBlocks ? 'SELECT term, ordinals, impacts, fields FROM search_posting_blocks' : POSTING_BLOCKS_SQL,
      )) as {
        term: string;
        ordinals: Buffer;
        impacts: Buffer;
        fields: Buffer | null;
      }[];
      const postings = new Map<string, TermPostings>();
      let sinceYield = 0;
      for (const row of rows) {
        const list = postingsOf(row.ordinals, row.impacts, ids.length, row.fields);
        postings.set(row.term, list);
        sinceYield += list.ordinals.length;
        if (sinceYield > POSTINGS_PER_YIELD) {
          sinceYield = 0;
          await yieldToEventLoop();
        }
      }
      const places = withPlaces ? await loadOfferPlaces(runner, ids.length) : emptyOfferPlaces(ids.length);
      await runner.query('COMMIT');
      // no stats row: an empty index, never reindexed (generation "0" until its first build)
      const index = new TextIndex(
        stats[0]?.generation ?? '0',
        ids,
        postings,
        filters.build(),
        stats[0]?.offers ?? 0,
        ordinals,
        languages,
        places,
      );
      return { index, fromBlocks, withPlaces, milliseconds: performance.now() - started };
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await runner.release();
  }
}

/**
 * The offers' places (docs/decisions.md D-88), in the load's snapshot: aggregated by PostgreSQL
 * into byte strings (OFFER_PLACES_SQL, OFFER_POINTS_SQL), not a row per offer.
 */
async function loadOfferPlaces(
  runner: { query(sql: string): Promise<unknown> },
  offers: number,
): Promise<OfferPlaces> {
  const [placed] = (await runner.query(OFFER_PLACES_SQL)) as {
    place_ids: string[];
    offers: Buffer | null;
    places: Buffer | null;
  }[];
  const [pointed] = (await runner.query(OFFER_POINTS_SQL)) as {
    counts: Buffer | null;
    points: Buffer | null;
  }[];
  return offerPlacesOf(
    {
      placeIds: placed.place_ids,
      placeOffers: placed.offers,
      places: placed.places,
      pointCounts: pointed.counts,
      points: pointed.points,
    },
    offers,
  );
}

/**
 * Lets the searches a replica serves meanwhile (from the generation it holds) run between chunks
 * of a load: reading 100,000 offers' postings into arrays is over a second of work.
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Offers read between two yields. */
const OFFERS_PER_YIELD = 20_000;
/** Postings read between two yields. */
const POSTINGS_PER_YIELD = 200_000;

interface OfferRow {
  id: string;
  destination_code: string | null;
  categories: string[];
  departure_days: string;
  is_valid: boolean;
  discount_club: boolean;
  seaside: boolean;
  language: string | null;
}

/**
 * One term's postings from its block (`search_posting_blocks`): ordinals and impacts as big-endian
 * 4-byte values (`int4send`, `float4send`), ascending by ordinal, and the fields of each posting, a
 * byte each (null: a block written before AddPostingFields, its fields unknown). Consumes the
 * buffers (their bytes are swapped in place).
 */
export function postingsOf(
  ordinals: Buffer,
  impacts: Buffer,
  offers: number,
  fields: Buffer | null = null,
): TermPostings {
  const count = ordinals.length / 4;
  if (!Number.isInteger(count) || impacts.length !== ordinals.length)
    throw new Error(
      `a posting block holds ${ordinals.length} bytes of ordinals and ${impacts.length} of impacts`,
    );
  if (fields !== null && fields.length !== count)
    throw new Error(`a posting block holds ${count} postings and ${fields.length} fields`);
  const list: TermPostings = { ordinals: new Int32Array(count), impacts: new Float32Array(count) };
  if (fields !== null) list.fields = Uint8Array.from(fields);
  // Typed arrays read the platform's byte order: little-endian on every platform Node supports.
  new Uint8Array(list.ordinals.buffer).set(ordinals.swap32());
  new Uint8Array(list.impacts.buffer).set(impacts.swap32());
  for (let i = 0; i < count; i++) {
    const ordinal = list.ordinals[i];
    if (ordinal < 0 || ordinal >= offers || (i > 0 && ordinal <= list.ordinals[i - 1]))
      throw new Error(`a posting block is not ascending offer ordinals below ${offers}`);
  }
  return list;
}
