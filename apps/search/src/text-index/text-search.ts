import type { ExpansionKind, QueryExpansion } from '../glossary/query-expander';

/** The weight of an expanded word of each kind (0: that kind is left out). */
export type ExpansionWeights = Record<ExpansionKind, number>;

/** What the text side reads of a search (a RankingRequest is one): its words, their expansion and its weights. */
export interface TextSearch {
  /** Trimmed, never blank. */
  search: string;
  expansion: QueryExpansion;
  tuning: { expansionWeights: ExpansionWeights };
}
