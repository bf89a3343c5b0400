import { BooleanSetting, StringSetting } from '@rt/platform';

/**
 * What the service shows of itself: its name (GET /, the preview page), its API docs and its
 * preview page, validated at start-up.
 */
export class ServiceSettings {
  /** `app-name` of the root response. */
  @StringSetting()
  APP_NAME: string = 'travel-search';

  /**
   * `/docs`, `/redoc` and `/openapi.json` exist only when this is true (docs/search-api.md).
   * Unset: on when APP_ENV is `local` (a local run serves its docs, as the backend does), off elsewhere.
   */
  @BooleanSetting()
  WITH_DOCS?: boolean;

  /**
   * The search preview page at `/preview` (docs/preview.md): searches, filters and why each offer
   * ranks where it does, for client developers and operators. Unset: on when APP_ENV is `local`,
   * off elsewhere.
   */
  @BooleanSetting()
  SEARCH_PREVIEW?: boolean;

  // Derived by loadSearchConfig (config.ts), not read from the environment:

  /** WITH_DOCS with its default applied: `/docs`, `/redoc` and `/openapi.json` are served. */
  docsEnabled!: boolean;

  /** SEARCH_PREVIEW with its default applied: the preview page is served. */
  previewEnabled!: boolean;
}
