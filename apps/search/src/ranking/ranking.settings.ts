import { BooleanSetting, FloatSetting, IntSetting } from '@rt/platform';
import type { EmbeddingProviderName } from '../embedding/embedding.settings';

/** What a ranking falls back to where SEARCH_RRF_VECTOR_WEIGHT and the floors are unset. */
export interface FusionDefaults {
  rrfVectorWeight: number;
  semanticFloor: number;
  noMatchSemanticFloor: number;
}

/**
 * The fusion's defaults per embedding provider (apps/search/README.md, "Fusion defaults per
 * provider"), overridden by SEARCH_RRF_VECTOR_WEIGHT and SEARCH_SEMANTIC_FLOOR:
 * - `builtin`: measured on the judged set (docs/benchmarks.md, "Relevance"): its vectors are
 *   lexical, so the text side ranks and the semantic side mostly adds records the text side lacks;
 * - `http`: a language model, of unknown quality and similarity scale: both sides weigh the same
 *   (reciprocal rank fusion as published, and as Elasticsearch's and OpenSearch's hybrid search
 *   default to), and no similarity floor, since one model's unrelated texts sit at 0.1 and
 *   another's at 0.7. Not measured here (no model can be run on the project's machines): measure
 *   one's own with `pnpm --filter search relevance --provider http`.
 *
 * `noMatchSemanticFloor` (SEARCH_NO_MATCH_SEMANTIC_FLOOR) is the semantic floor of a search none of
 * whose words the text side finds in any form: strings of 6 to 12 random letters reach 0.293 (max
 * of 200, the generated catalogue) and 0.287 (the multilingual one) with the built-in provider
 * (`relevance --random 200`), so 0.4 keeps none of them; for a model, the same command tells.
 */
export const FUSION_DEFAULTS: Record<EmbeddingProviderName, FusionDefaults> = {
  builtin: { rrfVectorWeight: 0.01, semanticFloor: 0.1, noMatchSemanticFloor: 0.4 },
  http: { rrfVectorWeight: 0.5, semanticFloor: 0, noMatchSemanticFloor: 0.5 },
};

/**
 * How GET /travels ranks a search and counts a listing (the ranking's defaults of a request:
 * travels-request.ts), validated at start-up. The weights of the words a search gains are the
 * query expansion's (QueryExpansionSettings).
 */
export class RankingSettings {
  /** Text-side score minimum (`tsvectorFloor` when the query does not give one; README, "The text side"). */
  @FloatSetting({ min: 0 })
  SEARCH_TSVECTOR_FLOOR: number = 0;

  /**
   * RRF weight of the semantic side (`rrfVectorWeight` when the query does not give one): 0 ranks by
   * full text alone, 1 by cosine similarity alone. Unset: the embedding provider's default
   * (FUSION_DEFAULTS).
   */
  @FloatSetting({ min: 0, max: 1 })
  SEARCH_RRF_VECTOR_WEIGHT?: number;

  /**
   * Cosine similarity minimum of the semantic side (`semanticFloor` when the query does not give
   * one). Unset: the embedding provider's default (FUSION_DEFAULTS).
   */
  @FloatSetting({ min: 0, max: 1 })
  SEARCH_SEMANTIC_FLOOR?: number;

  /**
   * The semantic side's minimum for a search none of whose words the text side finds in any form
   * (apps/search/README.md, "Searches that match nothing"): such a search answers only offers at
   * least this close. Unset: the embedding provider's default (FUSION_DEFAULTS).
   */
  @FloatSetting({ min: 0, max: 1 })
  SEARCH_NO_MATCH_SEMANTIC_FLOOR?: number;

  /**
   * How many nearest records (after the filters) the semantic side takes from the HNSW index at
   * most, before the floor. totalRecords counts exactly this candidate set, so every counted record
   * is reachable by paging (apps/search/README.md, "Hybrid ranking").
   */
  @IntSetting({ min: 1, max: 10_000 })
  SEARCH_SEMANTIC_CANDIDATES: number = 100;

  /**
   * The offers holding a catalogue word spelt like a search word (the 3 closest by trigram
   * similarity, `search_terms`) join the semantic candidates with exact distances, when that word is
   * held by at most this many offers; 0 turns the lookup off (apps/search/README.md, "Hybrid ranking").
   */
  @IntSetting({ min: 0, max: 100_000 })
  SEARCH_SPELLING_NEIGHBOUR_MAX_DOCUMENTS: number = 500;

  /**
   * `hnsw.ef_search` of the hybrid searches (a session setting of each pooled connection; raised to
   * SEARCH_SEMANTIC_CANDIDATES on a pgvector without iterative scans).
   */
  @IntSetting({ min: 1, max: 1000 })
  SEARCH_HNSW_EF_SEARCH: number = 100;

  /**
   * `hnsw.max_scan_tuples` of the hybrid searches: how far a filtered iterative index scan may
   * wander looking for records that pass the filters (docs/benchmarks.md, "Hybrid search speed").
   */
  @IntSetting({ min: 1 })
  SEARCH_HNSW_MAX_SCAN_TUPLES: number = 5_000;

  /**
   * How much an offer written in the search's guessed language scores more (× (1 + this)) than
   * one of another language (apps/search/README.md, "Concept coverage"; D-76): applied after
   * the coverage, so it reorders only offers covering the same concept weight; no effect when no
   * language is guessed; 0 turns it off. 0.25 by default (D-76, amended): it raises both judged
   * sets graded language first; the generated set's cross-language searches, judged on the
   * offers in other languages only, fall by construction, and a stronger preference lets an
   * offer of the search's language that mentions a word in passing outrank one about it.
   */
  @FloatSetting({ min: 0, max: 100 })
  SEARCH_LANGUAGE_PREFERENCE: number = 0.25;

  /**
   * Whether a place the search names is covered by where the offers are (docs/decisions.md D-88b:
   * inside it, near its point, in its region), once the index knows where they are (D-88); false
   * leaves places to their names, as before issue 62. Off by default until it lowers no judged
   * kind: on, the multilingual set's `world_no_offer` fell 0.385 → 0.119 (D-88b, "Measured").
   */
  @BooleanSetting()
  SEARCH_PLACE_COVERAGE: boolean = false;

  /** The `k` of reciprocal rank fusion (docs/decisions.md D-51: 60). */
  @IntSetting({ min: 1 })
  SEARCH_RRF_K: number = 60;

  /**
   * Embedding service unavailable while `search` is set: false → 503 `embedding_unavailable`;
   * true → a full-text-only answer with `X-Search-Fallback: fulltext`.
   */
  @BooleanSetting()
  SEARCH_FULLTEXT_FALLBACK: boolean = false;

  /**
   * Past this many records a listing stops counting: `totalRecords` is then this bound (a lower
   * bound, every counted record reachable by paging) with `totalRecordsRelation: "gte"`
   * (docs/decisions.md D-52, as Elasticsearch's `track_total_hits`); 0 counts every record.
   */
  @IntSetting({ min: 0 })
  SEARCH_TOTAL_EXACT_LIMIT: number = 0;

  // Derived by loadSearchConfig (config.ts), not read from the environment:

  /** FUSION_DEFAULTS of the configured EMBEDDING_PROVIDER. */
  fusionDefaults!: FusionDefaults;
}
