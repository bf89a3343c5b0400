import { OneOfSetting } from '@rt/platform';

/** Where a replica answers the semantic side from: its memory, or PostgreSQL (pgvector). */
export const VECTOR_INDEX_MODES = ['memory', 'database'] as const;
export type VectorIndexMode = (typeof VECTOR_INDEX_MODES)[number];

/** The in-memory vector index (VectorIndexService), validated at start-up. */
export class VectorIndexSettings {
  /**
   * `memory`: each replica holds the catalogue's vectors (about 1.9 KB an offer of 384 dimensions:
   * docs/scaling.md) and answers the semantic side without a statement; `database`: the semantic
   * side is one statement per search (pgvector's HNSW), for a replica whose memory cannot hold them.
   */
  @OneOfSetting(VECTOR_INDEX_MODES)
  SEARCH_VECTOR_INDEX: VectorIndexMode = 'memory';
}
