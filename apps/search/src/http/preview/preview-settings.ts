/**
 * What the preview page learns from the service that serves it, written into the page as JSON
 * (`<script type="application/json" id="preview-settings">`): the page is typed against it.
 */
export interface PreviewSettings {
  /** `app-name` and `version-tag` of the root response. */
  service: { name: string; version: string | null };
  embeddingProvider: string;
  /** The values a query's ranking knobs take when it does not give them (the SEARCH_* settings). */
  defaults: {
    rrfVectorWeight: number;
    semanticFloor: number;
    tsvectorFloor: number;
    /** The `k` of RRF: a side's contribution is its weight / (k + rank). */
    rrfK: number;
  };
}
