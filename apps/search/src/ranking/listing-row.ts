import type { CatalogueRecord } from '../catalogue/catalogue-record';
import type { FacetCounts } from '../request/listing-facets';

/** A row of a listing; which columns are set depends on the density. */
export interface ListingRow {
  id: string;
  name?: string;
  slug?: string;
  description?: string | null;
  rating?: number | null;
  next_departure?: string | null;
  destination_name?: string | null;
  discount_club?: boolean;
  is_valid?: boolean;
  categories?: string[];
  departure_dates?: string[];
  record?: CatalogueRecord;
  tsvector_score?: number;
  semantic_score?: number;
  _relevance_score?: number;
  position?: number;
  /** Explain mode, hybrid: the record's rank on the semantic side (null: not on it). */
  semantic_rank?: number | null;
  /** Explain mode, hybrid: the record's rank on the text side (null: not ranked on it). */
  text_rank?: number | null;
}

/** A listing's page and its total. */
export interface ListingResult {
  total: number;
  rows: ListingRow[];
  /** Only when the request asks for facets (D-81). */
  facets?: FacetCounts;
}

/**
 * What a listing answers when a statement read another generation than the in-memory text index's
 * (a reindex committed and this replica has not loaded it yet): the caller loads the new
 * generation and lists again (retryWhileGenerationChanges), so a page never mixes two catalogues
 * (D-63).
 */
export const GENERATION_CHANGED = Symbol('the generation changed');
export type GenerationChanged = typeof GENERATION_CHANGED;
