import { IntSetting } from '@rt/platform';

/** The in-memory text index (TextIndexService), validated at start-up. */
export class TextIndexSettings {
  /**
   * How often (ms) a replica asks the database whether a reindex wrote a new generation of the
   * text index, which it then loads and swaps in (the replica that ran the reindex loads it at
   * once); 0: only after its own reindexes.
   */
  @IntSetting({ min: 0, max: 3_600_000 })
  SEARCH_TEXT_INDEX_POLL_MS: number = 2_000;
}
