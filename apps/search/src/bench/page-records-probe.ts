import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import type { InfoDensity } from '../request/listing-request';
import { DENSITY_COLUMNS, GENERATION_COLUMN } from '../sql/offer-columns';

/**
 * The probe of the page's records (docs/benchmarks.md, "the page's records, probe"): against a database the search benchmark filled (`BENCH_DATABASE`), per density, a
 * primary-key read of 8 and of 100 random offers (the statement the listing runs today, less its
 * generation column and its similarity) beside the same records held in memory as compact cards
 * (each record's JSON text, by ordinal), the cards' bytes per offer, and the generation check
 * alone (the statement a search would still run with its cards in memory). Prints Markdown rows.
 * Usage: `BENCH_DATABASE=search_bench_10k node page-records-probe.js [rounds]`.
 */
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = process.env.BENCH_DATABASE ?? 'search_bench';
const PAGE_SIZES = [8, 100];
const DENSITIES: InfoDensity[] = ['min', 'card', 'search', 'full'];

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 300);
  const url = new URL(SERVER_URL);
  url.pathname = `/${DATABASE}`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const ids = (
      (await client.query('SELECT id FROM travel_offers ORDER BY id COLLATE "C"')).rows as {
        id: string;
      }[]
    ).map((row) => row.id);
    console.log(`${ids.length} offers in ${DATABASE}, ${rounds} rounds per figure, one connection`);
    // the statement a search would still run with its cards in memory: D-63's generation check
    const generation = await timed(rounds, async () => {
      await client.query(`SELECT ${GENERATION_COLUMN}`);
    });
    console.log(`the generation check alone (D-63), p50 / p95 ms: ${pair(generation)}`);
    console.log(
      '| density | read of 8 p50 / p95 (ms) | read of 100 p50 / p95 | cards of 8 p50 / p95 | cards of 100 p50 / p95 | card bytes per offer | at 100k / 1M (MiB) | loading the cards (s) |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const density of DENSITIES) {
      const statement = `SELECT ${DENSITY_COLUMNS[density]} FROM travel_offers o WHERE o.id = ANY($1::text[])`;
      // one size after the other: timed together, each read waited for the other's on the connection
      const readFigures = [];
      for (const size of PAGE_SIZES) {
        readFigures.push(
          await timed(rounds, async () => {
            const page = randomPage(ids.length, size).map((o) => ids[o]);
            const { rows } = await client.query(statement, [page]);
            if (rows.length !== size) throw new Error(`${rows.length} of ${size} records read`);
          }),
        );
      }

      const loadStarted = performance.now();
      const { rows } = await client.query(
        `SELECT ${DENSITY_COLUMNS[density]} FROM travel_offers o ORDER BY o.id COLLATE "C"`,
      );
      const cards = rows.map((row: Record<string, unknown>) => JSON.stringify(row));
      const loadSeconds = (performance.now() - loadStarted) / 1000;
      // V8 holds a string of Latin-1 characters in one byte each, any other in two
      let bytes = 0;
      for (const card of cards) bytes += isLatin1(card) ? card.length : 2 * card.length;
      const perOffer = bytes / cards.length;
      const cardFigures = [];
      for (const size of PAGE_SIZES) {
        cardFigures.push(
          await timed(rounds, () => {
            const page = randomPage(cards.length, size).map((o) => JSON.parse(cards[o]) as unknown);
            if (page.length !== size) throw new Error('short page');
            return Promise.resolve();
          }),
        );
      }
      const mib = (offers: number) => ((perOffer * offers) / 2 ** 20).toFixed(0);
      console.log(
        `| ${density} | ${readFigures.map(pair).join(' | ')} | ${cardFigures.map(pair).join(' | ')} | ${perOffer.toFixed(0)} | ${mib(100_000)} / ${mib(1_000_000)} | ${loadSeconds.toFixed(2)} |`,
      );
    }
  } finally {
    await client.end();
  }
}

function isLatin1(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}

/** `size` distinct random ordinals below `offers`. */
function randomPage(offers: number, size: number): number[] {
  const page = new Set<number>();
  while (page.size < Math.min(size, offers)) page.add(Math.floor(Math.random() * offers));
  return [...page];
}

/** p50 and p95 of `rounds` sequential runs of `run`, in ms, after 20 not counted. */
async function timed(rounds: number, run: () => Promise<void>): Promise<[number, number]> {
  for (let i = 0; i < 20; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.min(times.length - 1, Math.floor(share * times.length))];
  return [at(0.5), at(0.95)];
}

const pair = ([p50, p95]: [number, number]) => `${p50.toFixed(2)} / ${p95.toFixed(2)}`;

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
