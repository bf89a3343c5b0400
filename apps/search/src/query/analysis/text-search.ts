import type { ExpansionKind } from './analysed-query';

/** The weight of an expanded word of each kind (0: that kind is left out). */
export type ExpansionWeights = Record<ExpansionKind, number>;

/**
 * What the analysis reads of a search's request (a RankingRequest is one): its text, the
 * expansions' weights, and whether explain asks for what only it shows (docs/decisions.md D-65).
 */
export interface TextSearch {
  /** Trimmed, never blank. */
  search: string;
  tuning: { expansionWeights: ExpansionWeights };
  explain?: boolean;
}
