import { statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Index, MetricKind, ScalarKind, exactSearch } from 'usearch';
import type { Matches } from 'usearch';
import { generateCatalogue, parseGeneratedSource } from '../catalogue/catalogue-generator';
import { embeddingTextOf, toIndexedOffer } from '../catalogue/catalogue-record';
import { RecordValidator } from '../catalogue/record-validator';
import { BuiltinEmbeddingProvider } from '../embedding/builtin-embedding.provider';
import { InMemoryFullPrecisionVectors, cosineAt } from '../indexes/vector-index/full-precision-vectors';
import { ApproximateIndex } from '../indexes/vector-index/native-search';
import type { ApproximateScalar } from '../indexes/vector-index/native-search';
import { QuantizedVectors, quantizedQuery } from '../indexes/vector-index/quantized-vectors';
import { TopK } from '../indexes/vector-index/top-k';
import { VectorIndex } from '../indexes/vector-index/vector-index';
import { TYPED_SEARCHES } from './typed-searches';

/**
 * The vector side's probe (docs/benchmarks.md, "the vector side in memory, probe"): the
 * built-in provider's vectors of `generated:<count>` offers, searched in process for the typed
 * searches' strings, k = 100. Prints, as Markdown table rows, the exact scorings (plain
 * JavaScript over 32-bit floats and over QuantizedVectors' int8, usearch's SIMD exactSearch) over
 * every offer and over one destination's offers, and usearch's HNSW at i8 / f16 / f32 for several
 * ef, each with recall@100 and the top-8 overlap against exact full-precision cosines; hnswlib-node
 * too when it resolves (it is no dependency: it compiles on install). Usage:
 * `node vector-index-probe.js <count> [threads]`.
 */
const K = 100;
const DIMENSION = 384;
const EF_SEARCHES = [64, 128, 256, 512];
/** usearch's HNSW: scalar and connectivity (M), ef_construction 128. */
const USEARCH_CONFIGURATIONS: [ApproximateScalar, number][] = [
  ['i8', 16],
  ['i8', 32],
  ['f16', 16],
  ['f16', 32],
  ['f32', 16],
];

interface Run {
  name: string;
  times: number[];
  found: Int32Array[];
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 10_000);
  const threads = Number(process.argv[3] ?? 1);
  const { vectors, destinations } = embeddedOffers(count);
  const provider = new BuiltinEmbeddingProvider(DIMENSION);
  const queries = TYPED_SEARCHES.map(({ search }) => provider.embed(search));
  const offers = vectors.length / DIMENSION;
  const subset = oneDestination(destinations, offers);
  console.log(
    `${offers} offers, ${queries.length} queries, k = ${K}, filtered subset ${subset.length} offers`,
  );

  const truth = timed('exact, JS f32, all', queries, (q) => exactJs(vectors, q, K));
  const truthSubset = timed('exact, JS f32, subset', queries, (q) => exactJs(vectors, q, K, subset));
  const quantized = new QuantizedVectors(DIMENSION, offers);
  for (let o = 0; o < offers; o++) quantized.set(o, vectors, o * DIMENSION);
  const index = new VectorIndex('probe', quantized, new InMemoryFullPrecisionVectors(DIMENSION, vectors));
  const int8 = (q: Float32Array) => quantizedQuery(q);
  const norms = int8Norms(quantized);
  const runs: [Run, Run][] = [
    [truth, truth],
    [timed('exact, JS int8, all (no re-scoring)', queries, (q) => int8Only(quantized, norms, q, K)), truth],
    [
      timed(
        'VectorIndex.exact (usearch int8 + f32 re-scoring ×2), all',
        queries,
        (q) => index.exact(q, K).ordinals,
      ),
      truth,
    ],
    [
      timed('usearch exactSearch f32, all, 1 thread', queries, (q) =>
        keys(exactSearch(vectors, q, DIMENSION, K, MetricKind.Cos, 1)),
      ),
      truth,
    ],
    [
      timed(`usearch exactSearch f32, all, ${threads} threads`, queries, (q) =>
        keys(exactSearch(vectors, q, DIMENSION, K, MetricKind.Cos, threads)),
      ),
      truth,
    ],
    [
      timed('usearch exactSearch int8, all, 1 thread', queries, (q) =>
        keys(exactSearch(quantized.values, int8(q), DIMENSION, K, MetricKind.Cos, 1)),
      ),
      truth,
    ],
    [truthSubset, truthSubset],
    [
      timed('exact, JS int8, subset (no re-scoring)', queries, (q) =>
        int8Only(quantized, norms, q, K, subset),
      ),
      truthSubset,
    ],
    [
      timed(
        'VectorIndex.exact (copy, usearch int8, re-scoring ×2), subset',
        queries,
        (q) => index.exact(q, K, subset).ordinals,
      ),
      truthSubset,
    ],
    [
      timed('usearch exactSearch int8, subset (copied per search)', queries, (q) =>
        exactSubset(quantized, subset, int8(q)),
      ),
      truthSubset,
    ],
  ];
  for (const [run, against] of runs) row(run, against);

  for (const [scalar, connectivity] of USEARCH_CONFIGURATIONS) {
    const built = buildUsearch(vectors, scalar, connectivity, threads);
    for (const ef of EF_SEARCHES) {
      // usearch fixes ef_search when an index is made: the built one is loaded into one per ef
      const ann = new Index({
        dimensions: DIMENSION,
        metric: MetricKind.Cos,
        quantization: built.kind,
        connectivity,
        expansion_add: 128,
        expansion_search: ef,
        multi: false,
      });
      ann.load(built.path);
      const run = timed(`usearch HNSW ${scalar}, M ${connectivity}, ef ${ef}`, queries, (q) =>
        keys(ann.search(q, K, 1)),
      );
      row(
        run,
        truth,
        `built in ${built.seconds.toFixed(1)} s (${threads} threads), ${built.mib.toFixed(1)} MiB`,
      );
    }
    unlinkSync(built.path);
  }
  await probeApproximateIndex(quantized, vectors, queries, truth, threads);
  await probeHnswlib(vectors, queries, truth);
}

/** ApproximateIndex as the module builds it (from the int8 vectors), f16, and VectorIndex.nearest over it. */
async function probeApproximateIndex(
  quantized: QuantizedVectors,
  vectors: Float32Array,
  queries: Float32Array[],
  truth: Run,
  threads: number,
): Promise<void> {
  for (const scalar of ['i8', 'f16'] as const) {
    const before = rss();
    const started = performance.now();
    const ann = await ApproximateIndex.build(
      quantized,
      { scalar, connectivity: 16, expansionAdd: 128, expansionSearch: 256 },
      threads,
    );
    const note = `built in ${((performance.now() - started) / 1000).toFixed(1)} s, +${(rss() - before).toFixed(0)} MiB`;
    row(
      timed(`ApproximateIndex ${scalar} from int8, ef 256, k ${K}`, queries, (q) => ann.search(q, K)),
      truth,
      note,
    );
    const index = new VectorIndex(
      'probe',
      quantized,
      new InMemoryFullPrecisionVectors(DIMENSION, vectors),
      ann,
    );
    row(
      timed(
        `VectorIndex.nearest (${scalar} ANN, ${2 * K} re-scored)`,
        queries,
        (q) => index.nearest(q, K).ordinals,
      ),
      truth,
    );
    for (const every of [10, 3]) {
      const filtered = Int32Array.from({ length: Math.ceil(quantized.count / every) }, (_, i) => every * i);
      const truthFiltered = timed(`exact, JS f32, one offer in ${every}`, queries, (q) =>
        exactJs(vectors, q, K, filtered),
      );
      row(
        timed(
          `VectorIndex.nearest (${scalar} ANN), one offer in ${every}`,
          queries,
          (q) => index.nearest(q, K, filtered).ordinals,
        ),
        truthFiltered,
      );
      row(
        timed(`usearch exactSearch int8, copied subset, one offer in ${every}`, queries, (q) =>
          exactSubset(quantized, filtered, quantizedQuery(q)),
        ),
        truthFiltered,
      );
      row(
        timed(
          `VectorIndex.exact (usearch int8, over-fetched), one offer in ${every}`,
          queries,
          (q) => index.exact(q, K, filtered).ordinals,
        ),
        truthFiltered,
      );
    }
  }
}

async function probeHnswlib(vectors: Float32Array, queries: Float32Array[], truth: Run): Promise<void> {
  // no dependency: a name the compiler does not resolve
  const name = 'hnswlib-node';
  let hnswlib: HnswlibModule;
  try {
    const imported = (await import(name)) as { default?: HnswlibModule } & HnswlibModule;
    hnswlib = imported.default ?? imported;
  } catch {
    console.log('hnswlib-node: not installed, skipped');
    return;
  }
  const offers = vectors.length / DIMENSION;
  const before = rss();
  const started = performance.now();
  const ann = new hnswlib.HierarchicalNSW('cosine', DIMENSION);
  ann.initIndex(offers, 16, 128, 100);
  for (let o = 0; o < offers; o++)
    ann.addPoint(Array.from(vectors.subarray(o * DIMENSION, (o + 1) * DIMENSION)), o);
  const note = `built in ${((performance.now() - started) / 1000).toFixed(1)} s (1 thread), +${(rss() - before).toFixed(0)} MiB`;
  for (const ef of EF_SEARCHES) {
    ann.setEf(ef);
    const run = timed(`hnswlib-node f32, M 16, ef ${ef}`, queries, (q) =>
      Int32Array.from(ann.searchKnn(Array.from(q), K).neighbors),
    );
    row(run, truth, note);
  }
}

interface HnswlibModule {
  HierarchicalNSW: new (
    space: 'cosine',
    dimension: number,
  ) => {
    initIndex(maxElements: number, m: number, efConstruction: number, randomSeed: number): void;
    addPoint(point: number[], label: number): void;
    setEf(ef: number): void;
    searchKnn(query: number[], k: number): { neighbors: number[] };
  };
}

/** The offers' vectors (in id order: the ordinals) and destination codes. */
function embeddedOffers(count: number): { vectors: Float32Array; destinations: string[] } {
  const options = parseGeneratedSource(`generated:${count}`)!;
  const validator = new RecordValidator();
  const provider = new BuiltinEmbeddingProvider(DIMENSION);
  const offers = [...generateCatalogue(options)]
    .filter((record) => validator.check(record).ok)
    .map(toIndexedOffer);
  offers.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const vectors = new Float32Array(offers.length * DIMENSION);
  offers.forEach((offer, o) => vectors.set(provider.embed(embeddingTextOf(offer)), o * DIMENSION));
  return { vectors, destinations: offers.map((offer) => offer.destinationCode ?? '') };
}

/** The ordinals of the destination whose offers are closest to 3% of all (a typical filtered search's share). */
function oneDestination(destinations: string[], offers: number): Int32Array {
  const counts = new Map<string, number>();
  for (const code of destinations) counts.set(code, (counts.get(code) ?? 0) + 1);
  const [code] = [...counts].sort(
    (a, b) => Math.abs(a[1] - 0.03 * offers) - Math.abs(b[1] - 0.03 * offers),
  )[0];
  return Int32Array.from(destinations.flatMap((c, o) => (c === code ? [o] : [])));
}

function exactJs(vectors: Float32Array, query: Float32Array, k: number, subset?: Int32Array): Int32Array {
  const heap = new TopK(k);
  heap.reset(k);
  const offers = subset ?? Int32Array.from({ length: vectors.length / DIMENSION }, (_, o) => o);
  for (const o of offers) heap.offer(o, cosineAt(query, vectors, o * DIMENSION, DIMENSION));
  return heap.drain().ordinals;
}

function int8Norms(quantized: QuantizedVectors): Float32Array {
  const norms = new Float32Array(quantized.count);
  for (let o = 0; o < quantized.count; o++) {
    let squares = 0;
    for (const value of quantized.vector(o)) squares += value * value;
    norms[o] = Math.sqrt(squares);
  }
  return norms;
}

/** Plain JavaScript over the int8 vectors: the f32 query's dot product with each, over its norm. */
function int8Only(
  quantized: QuantizedVectors,
  norms: Float32Array,
  query: Float32Array,
  k: number,
  subset?: Int32Array,
): Int32Array {
  const heap = new TopK(k);
  heap.reset(k);
  const { values } = quantized;
  const offers = subset ?? Int32Array.from({ length: quantized.count }, (_, o) => o);
  for (const o of offers) {
    let dot = 0;
    for (let i = 0, at = o * DIMENSION; i < DIMENSION; i++) dot += query[i] * values[at + i];
    heap.offer(o, norms[o] === 0 ? 0 : dot / norms[o]);
  }
  return heap.drain().ordinals;
}

function exactSubset(quantized: QuantizedVectors, subset: Int32Array, query: Int8Array): Int32Array {
  const values = new Int8Array(subset.length * DIMENSION);
  subset.forEach((o, i) =>
    values.set(quantized.values.subarray(o * DIMENSION, (o + 1) * DIMENSION), i * DIMENSION),
  );
  const found = keys(exactSearch(values, query, DIMENSION, Math.min(K, subset.length), MetricKind.Cos, 1));
  return found.map((i) => subset[i]);
}

function keys(matches: Matches | { keys: BigUint64Array }): Int32Array {
  return Int32Array.from(matches.keys, (key) => Number(key));
}

function buildUsearch(
  vectors: Float32Array,
  scalar: ApproximateScalar,
  connectivity: number,
  threads: number,
) {
  const kind: ScalarKind = { i8: ScalarKind.I8, f16: ScalarKind.F16, f32: ScalarKind.F32 }[scalar];
  const started = performance.now();
  const ann = new Index({
    dimensions: DIMENSION,
    metric: MetricKind.Cos,
    quantization: kind,
    connectivity,
    expansion_add: 128,
    expansion_search: 64,
    multi: false,
  });
  const offers = vectors.length / DIMENSION;
  ann.add(
    BigUint64Array.from({ length: offers }, (_, o) => BigInt(o)),
    vectors,
    threads,
  );
  const seconds = (performance.now() - started) / 1000;
  const path = join(tmpdir(), `vector-index-probe-${scalar}-${connectivity}-${process.pid}.usearch`);
  ann.save(path);
  // its file is its memory: the vectors at `scalar` and the graph
  const mib = statSync(path).size / 1048576;
  return { kind, seconds, mib, path };
}

function timed(name: string, queries: Float32Array[], search: (query: Float32Array) => Int32Array): Run {
  search(queries[0]);
  const times: number[] = [];
  const found = queries.map((query) => {
    const started = performance.now();
    const result = search(query);
    times.push(performance.now() - started);
    return result;
  });
  return { name, times, found };
}

/** One table row: name, p50, p95, recall@100 and the top-8 overlap against `truth`. */
function row(run: Run, truth: Run, note = ''): void {
  const sorted = [...run.times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  const overlap = (n: number) => {
    let hits = 0;
    let total = 0;
    run.found.forEach((found, q) => {
      const expected = new Set(truth.found[q].subarray(0, n));
      total += expected.size;
      for (const o of found.subarray(0, n)) if (expected.has(o)) hits++;
    });
    return hits / total;
  };
  console.log(
    `| ${run.name} | ${at(0.5).toFixed(2)} | ${at(0.95).toFixed(2)} | ${overlap(K).toFixed(3)} | ${overlap(8).toFixed(3)} | ${note} |`,
  );
}

/** The resident set in MiB, after a full collection when node runs with --expose-gc. */
function rss(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / 1048576;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
