import type { RescoringVectors } from './full-precision-vectors';
import { exactInt8Nearest } from './native-search';
import { quantizedQuery } from './quantized-vectors';
import type { QuantizedVectors } from './quantized-vectors';
import type { SparseQueryScan } from './sparse-query-scan';
import { TopK } from './top-k';
import type { Neighbours } from './top-k';

/**
 * Below this share of the offers passing a search's filters, the vector side scores exactly
 * rather than asking the approximate index (as pgvector's planner turns to exact distances under
 * selective filters, and LanceDB prefilters): the index would have to be asked for k / share
 * neighbours to find k that pass (at 100,000 offers, asking it for 2,000 to keep 200 of one offer
 * in ten took 11 ms at p50, the exact search 1.2 ms: docs/benchmarks.md, "the vector
 * side in memory, probe").
 */
export const EXACT_BELOW_SHARE = 0.5;
/**
 * Below this share of the offers passing, the exact search scores the filtered offers alone
 * (copied into a work buffer of this share of the vectors); above it, every offer, asking for
 * more neighbours and dropping those that fail the filters.
 */
export const COPIED_BELOW_SHARE = 0.1;
/**
 * Candidates of the int8 search re-scored (RescoringVectors) per neighbour asked: the int8
 * cosines misorder close neighbours (docs/benchmarks.md, "the vector side in memory,
 * probe": recall@100 0.990 from int8 alone, 1.000 re-scoring twice as many).
 */
export const RESCORED_PER_NEIGHBOUR = 2;
/** How much a search asking for more neighbours than it keeps asks for the next time, when too few passed the filters. */
const OVERFETCH_GROWTH = 4;
/**
 * How many times `wanted` / the share passing the exact search asks for first: the nearest
 * offers are not spread evenly over the filters, and asking again costs a whole scan.
 */
const EXACT_OVERFETCH_MARGIN = 2;

/** An approximate nearest-neighbour index over the same ordinals (native-search.ts's ApproximateIndex). */
export interface ApproximateNeighbours {
  /** The ordinals of (about) the `k` nearest vectors to `query`, nearest first. */
  search(query: Float32Array, k: number): Int32Array;
}

/**
 * The vector side of one generation of the catalogue, held in memory: each offer's embedding by
 * ordinal (the text index's ordinals: the offers in id byte order, so that both sides share them
 * and the filter columns), quantized to int8 for the search (QuantizedVectors, scored exactly
 * with SIMD: native-search.ts), at half precision for re-scoring the candidates
 * (RescoringVectors: HalfPrecisionVectors in a replica), and optionally an approximate index for
 * the searches whose filters leave many offers. The similarities it answers are those cosines,
 * pgvector's `1 − (embedding <=> query)` within 1e-3 (D-75). Immutable once built; one search at a time (searches are
 * synchronous, and share its work arrays).
 */
export class VectorIndex {
  /** Marks the offers passing a search's filters while its candidates are kept (cleared after). */
  private readonly passing: Uint8Array;
  /** The vectors of a selective search's filtered offers, copied (at most COPIED_BELOW_SHARE of them). */
  private filteredValues?: Int8Array;
  private best = new TopK(100);

  constructor(
    /** `search_stats.generation` of the catalogue the vectors were read from. */
    readonly generation: string,
    readonly quantized: QuantizedVectors,
    readonly rescoring: RescoringVectors,
    readonly approximate?: ApproximateNeighbours,
    /** The same int8 vectors laid out for sparse queries (SparseQueryScan), when built. */
    readonly sparse?: SparseQueryScan,
  ) {
    this.passing = new Uint8Array(quantized.count);
  }

  get offers(): number {
    return this.quantized.count;
  }

  get dimension(): number {
    return this.quantized.dimension;
  }

  /** Bytes of the vectors and work arrays (the approximate index's own copy and graph are not counted). */
  get bytes(): number {
    return (
      this.quantized.bytes +
      (this.sparse?.byteLength ?? 0) +
      this.rescoring.bytes +
      this.passing.byteLength +
      Math.ceil(COPIED_BELOW_SHARE * this.offers) * this.dimension
    );
  }

  /**
   * The `k` offers nearest to `query` (L2-normalised, `dimension` values) by cosine, among
   * `filtered` (distinct ordinals, ascending: the offers passing a search's filters) when given,
   * best first, ties by ordinal, with their re-scored similarities. Exact by the sparse scan
   * when the query has few non-zero dimensions; else from the approximate index when there is one
   * and at least EXACT_BELOW_SHARE of the offers pass (then about the `k` nearest: the index
   * misses some), else exact by the row scan.
   */
  nearest(query: Float32Array, k: number, filtered?: Int32Array): Neighbours {
    return this.search(query, k, filtered, this.approximate);
  }

  /** The `k` nearest offers (of `filtered` when given), exactly: int8 cosines, then re-scored (RescoringVectors). */
  exact(query: Float32Array, k: number, filtered?: Int32Array): Neighbours {
    return this.search(query, k, filtered, undefined);
  }

  /** `nearest`, from `approximate` when given (else exactly). */
  private search(
    query: Float32Array,
    k: number,
    filtered: Int32Array | undefined,
    approximate: ApproximateNeighbours | undefined,
  ): Neighbours {
    const quantized = quantizedQuery(query);
    // the sparse scan: every offer's int8 cosine read only on the query's non-zero dimensions
    // (undefined without the layout or for a query too dense for it)
    const sparse = this.sparse?.nearest(quantized, RESCORED_PER_NEIGHBOUR * k, filtered);
    if (sparse !== undefined) return this.rescored(query, sparse, k);
    const passing = filtered === undefined ? this.offers : filtered.length;
    if (approximate !== undefined && passing >= EXACT_BELOW_SHARE * this.offers) {
      const candidates = this.keptPassing(filtered, RESCORED_PER_NEIGHBOUR * k, k, 1, (asked) =>
        approximate.search(query, asked),
      );
      // too few passing among all the index would answer: the filtered offers are scored exactly
      if (candidates !== undefined) return this.rescored(query, candidates, k);
    }
    return this.rowScanNearest(query, quantized, k, filtered);
  }

  /** `exact` by usearch's SIMD over every vector's row (or the filtered offers' rows, copied). */
  private rowScanNearest(
    query: Float32Array,
    quantized: Int8Array,
    k: number,
    filtered: Int32Array | undefined,
  ): Neighbours {
    const wanted = RESCORED_PER_NEIGHBOUR * k;
    const { values, dimension } = this.quantized;
    if (filtered !== undefined && filtered.length < COPIED_BELOW_SHARE * this.offers) {
      const copied = (this.filteredValues ??= new Int8Array(
        Math.ceil(COPIED_BELOW_SHARE * this.offers) * dimension,
      ));
      for (let i = 0; i < filtered.length; i++) {
        const from = filtered[i] * dimension;
        copied.set(values.subarray(from, from + dimension), i * dimension);
      }
      const positions = exactInt8Nearest(
        copied.subarray(0, filtered.length * dimension),
        dimension,
        quantized,
        wanted,
      );
      for (let i = 0; i < positions.length; i++) positions[i] = filtered[positions[i]];
      return this.rescored(query, positions, k);
    }
    const candidates = this.keptPassing(filtered, wanted, wanted, EXACT_OVERFETCH_MARGIN, (asked) =>
      exactInt8Nearest(values, dimension, quantized, asked),
    )!;
    return this.rescored(query, candidates, k);
  }

  /**
   * The first `wanted` of the offers `nearest` answers that pass the filters (all of them when
   * there are none), asking it for `margin` × `wanted` / the share passing, then OVERFETCH_GROWTH times more
   * each time fewer than `atLeast` pass, up to every offer; undefined when fewer than `atLeast` pass
   * of every offer `nearest` answers while more pass the filters (an approximate index does not
   * answer them all).
   */
  private keptPassing(
    filtered: Int32Array | undefined,
    wanted: number,
    atLeast: number,
    margin: number,
    nearest: (asked: number) => Int32Array,
  ): Int32Array | undefined {
    if (filtered === undefined) return nearest(wanted);
    const { passing } = this;
    for (let i = 0; i < filtered.length; i++) passing[filtered[i]] = 1;
    try {
      const enough = Math.min(atLeast, filtered.length);
      let asked = Math.min(
        this.offers,
        Math.ceil((margin * wanted * this.offers) / Math.max(1, filtered.length)),
      );
      for (;;) {
        const found = nearest(asked);
        let kept = 0;
        for (let i = 0; i < found.length && kept < wanted; i++) {
          if (passing[found[i]] === 1) found[kept++] = found[i];
        }
        if (kept >= enough) return found.subarray(0, kept);
        if (found.length < asked || asked === this.offers) return undefined;
        asked = Math.min(this.offers, asked * OVERFETCH_GROWTH);
      }
    } finally {
      for (let i = 0; i < filtered.length; i++) passing[filtered[i]] = 0;
    }
  }

  /** The `k` best of `candidates` by their re-scored cosine with `query` (RescoringVectors). */
  private rescored(query: Float32Array, candidates: Int32Array, k: number): Neighbours {
    const similarities = new Float64Array(candidates.length);
    this.rescoring.cosines(query, candidates, similarities);
    if (this.best.capacity < k) this.best = new TopK(k);
    this.best.reset(Math.min(k, candidates.length));
    for (let i = 0; i < candidates.length; i++) this.best.offer(candidates[i], similarities[i]);
    return this.best.drain();
  }
}
