/** Which database the service runs on (app.module.ts provides it under SEARCH_DATABASE). */
export interface DatabaseRuntime {
  url: string;
  /** The embedded database: one session, a pool of one connection. */
  singleSession: boolean;
}

export const SEARCH_DATABASE = Symbol('SEARCH_DATABASE');
