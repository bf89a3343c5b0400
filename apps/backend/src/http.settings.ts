import { ListSetting } from '@rt/platform';

/** The backend's HTTP edge beyond BaseEnv's (http.ts). */
export class HttpSettings {
  /**
   * Origins allowed to call the API from a browser, comma-separated. Unset with APP_ENV=local:
   * CLIENT_APP_URL's origin (corsOriginsOf, docs/decisions.md D-79).
   */
  @ListSetting()
  CORS_ORIGINS: string[] = [];
}
