import type { DataSource } from 'typeorm';
import { OfferFilterColumnsBuilder } from './offer-filters';
import { TextIndex } from './text-index';
import type { TermPostings } from './text-index';

/** What a load read, for the logs and the metrics. */
export interface TextIndexLoad {
  index: TextIndex;
  /** Milliseconds from the first statement to the built index. */
  milliseconds: number;
}

/**
 * Loads the text index from PostgreSQL, the single source of truth, in one read-only snapshot
 * (REPEATABLE READ: the offers, the postings and the generation of one catalogue, also while a
 * reindex commits): the offers' ids in byte order with their filterable fields, then every term's
 * postings, aggregated per term by the server (ids as one text, impacts as their 4-byte floats)
 * so that a term is one row.
 */
export async function loadTextIndex(dataSource: DataSource): Promise<TextIndexLoad> {
  const started = performance.now();
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      // one statement's sort and aggregation of every posting: in memory, not on disk
      await runner.query("SET LOCAL work_mem = '256MB'");
      const stats = (await runner.query(
        'SELECT generation::text AS generation, offers FROM search_stats',
      )) as { generation: string; offers: number }[];
      const offers = (await runner.query(
        `SELECT id, destination_code, categories, departure_days::text AS departure_days, is_valid,
           discount_club, seaside
         FROM travel_offers ORDER BY id`,
      )) as OfferRow[];
      const ordinals = new Map<string, number>();
      const filters = new OfferFilterColumnsBuilder();
      const ids: string[] = [];
      for (const offer of offers) {
        if (ids.length % 20_000 === 19_999) await yieldToEventLoop();
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
        // in the table's order (the reindex writes postings in offer order), sorted here when not:
        // an ORDER BY inside the aggregates sorts every term's postings and took 2.5× as long
        `SELECT term, string_agg(offer_id, ' ') AS ids, string_agg(float4send(impact), ''::bytea) AS impacts
         FROM search_postings GROUP BY term`,
      )) as { term: string; ids: string; impacts: Buffer }[];
      const postings = new Map<string, TermPostings>();
      let sinceYield = 0;
      for (const row of rows) {
        const list = postingsOf(row.ids, row.impacts, ordinals);
        postings.set(row.term, list);
        sinceYield += list.ordinals.length;
        if (sinceYield > 200_000) {
          sinceYield = 0;
          await yieldToEventLoop();
        }
      }
      await runner.query('COMMIT');
      // no stats row: an empty index, never reindexed (generation "0" until its first build)
      const index = new TextIndex(
        stats[0]?.generation ?? '0',
        ids,
        postings,
        filters.build(),
        stats[0]?.offers ?? 0,
        ordinals,
      );
      return { index, milliseconds: performance.now() - started };
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await runner.release();
  }
}

/**
 * Lets the searches a replica serves meanwhile (from the generation it holds) run between chunks
 * of a load: reading 100,000 offers' postings into arrays is over a second of work.
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

interface OfferRow {
  id: string;
  destination_code: string | null;
  categories: string[];
  departure_days: string;
  is_valid: boolean;
  discount_club: boolean;
  seaside: boolean;
}

/**
 * One term's postings from its aggregated row: ids (space-separated) and impacts (big-endian
 * 4-byte floats, float4send), in the same order; sorted by ordinal. Offer ids hold no space (the
 * catalogue schema's id pattern).
 */
export function postingsOf(ids: string, impacts: Buffer, ordinals: Map<string, number>): TermPostings {
  const parts = ids.split(' ');
  const list: TermPostings = {
    ordinals: new Int32Array(parts.length),
    impacts: new Float32Array(parts.length),
  };
  let sorted = true;
  for (let i = 0; i < parts.length; i++) {
    const ordinal = ordinals.get(parts[i]);
    if (ordinal === undefined) throw new Error(`a posting names the unknown offer ${parts[i]}`);
    list.ordinals[i] = ordinal;
    list.impacts[i] = impacts.readFloatBE(4 * i);
    if (i > 0 && ordinal < list.ordinals[i - 1]) sorted = false;
  }
  return sorted ? list : sortedByOrdinal(list);
}

function sortedByOrdinal(list: TermPostings): TermPostings {
  const order = Array.from(list.ordinals.keys()).sort((a, b) => list.ordinals[a] - list.ordinals[b]);
  return {
    ordinals: Int32Array.from(order, (i) => list.ordinals[i]),
    impacts: Float32Array.from(order, (i) => list.impacts[i]),
  };
}
