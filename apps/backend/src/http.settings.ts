import { ListSetting } from '@rt/platform';

/** The backend's HTTP edge beyond BaseEnv's (http.ts). */
export class HttpSettings {
  /** Origins allowed to call the API from a browser, comma-separated. */
  @ListSetting()
  CORS_ORIGINS: string[] = [];
}
