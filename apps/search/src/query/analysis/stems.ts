import { LRUCache } from 'lru-cache';

/**
 * The stems of the analysis: PostgreSQL's Snowball stems of a token (`ts_lexize`, exact by
 * construction, the same the index was built with), fetched and cached by StemCache, so that the
 * analysis itself is synchronous and pure; and the forms of a word and of a phrase built from them.
 */

/** What PostgreSQL's text search makes of a token (StemCache). */
export interface TokenForms {
  /** `(ts_lexize('travel_fr_stem', token))[1]`, null when it gives none. */
  fr: string | null;
  de: string | null;
  en: string | null;
  /** A stop word of the `french_stem`, `german_stem` or `english_stem` dictionaries. */
  stop: boolean;
}

/** The forms of each token an analysis needs (requiredTokens); throws for a token not fetched. */
export type StemsOf = (token: string) => TokenForms;

/** A token's variants: itself, then its French, German and English stems (itself where none). */
export function variantsOf(token: string, forms: TokenForms): string[] {
  return [token, forms.fr ?? token, forms.de ?? token, forms.en ?? token];
}

/**
 * `travel_term_forms(phrase)`: a word's variants; a phrase's pairs of adjacent words, each pair
 * stemmed by one stemmer, but those of two stop words; null when the phrase has no
 * word, or no such pair.
 */
export function termFormsOf(phrase: string, stems: StemsOf): string[] | null {
  const words = phrase
    .split(' ')
    .map((text, position) => ({ text, position }))
    .filter((word) => word.text !== '');
  if (!words.length) return null;
  if (words.length === 1) return variantsOf(words[0].text, stems(words[0].text));
  const pairs: string[] = [];
  for (const first of words) {
    const second = words.find((word) => word.position === first.position + 1);
    if (!second) continue;
    const firstForms = stems(first.text);
    const secondForms = stems(second.text);
    // two little words say nothing of the phrase ("vacances à la neige": not "a la")
    if (firstForms.stop && secondForms.stop) continue;
    const a = variantsOf(first.text, firstForms);
    const b = variantsOf(second.text, secondForms);
    for (let k = 0; k < 4; k++) pairs.push(`${a[k]} ${b[k]}`);
  }
  return pairs.length ? pairs : null;
}

/** Runs one SQL statement, returning its rows (a TypeORM DataSource's `query`, or pg's). */
export type SqlQuery = (text: string, values: unknown[]) => Promise<unknown[]>;

interface StemRow {
  token: string;
  fr: string | null;
  de: string | null;
  en: string | null;
  stop: boolean | null;
}

/** The Snowball stems of a list of tokens and their stop-word test. */
const STEMS_SQL = `
  SELECT t AS token,
    (ts_lexize('travel_fr_stem', t))[1] AS fr,
    (ts_lexize('travel_de_stem', t))[1] AS de,
    (ts_lexize('travel_en_stem', t))[1] AS en,
    ts_lexize('french_stem', t) = '{}' OR ts_lexize('german_stem', t) = '{}'
      OR ts_lexize('english_stem', t) = '{}' AS stop
  FROM unnest($1::text[]) t`;

/** The most tokens whose stems StemCache keeps. */
const MAX_CACHED_TOKENS = 100_000;

/**
 * PostgreSQL's stems of tokens (`ts_lexize`, exact by construction), fetched in one statement
 * for the tokens a search needs that are not cached, and kept in an LRU: a search whose tokens
 * were seen needs no SQL. Stems do not depend on the catalogue: the cache is never invalidated.
 */
export class StemCache {
  private readonly cache: LRUCache<string, TokenForms>;
  /** Tokens being fetched, so that concurrent searches fetch each once. */
  private readonly pending = new Map<string, Promise<Map<string, TokenForms>>>();
  /** How many statements were run (one per search with a token not cached). */
  statements = 0;

  constructor(
    private readonly query: SqlQuery,
    maxTokens = MAX_CACHED_TOKENS,
  ) {
    this.cache = new LRUCache({ max: maxTokens });
  }

  get size(): number {
    return this.cache.size;
  }

  /**
   * The forms of `tokens` (requiredTokens): those not cached fetched in one statement. The
   * function answers for these tokens even if the LRU evicts them meanwhile.
   */
  async formsOf(tokens: Iterable<string>): Promise<StemsOf> {
    const forms = new Map<string, TokenForms>();
    const missing: string[] = [];
    const waits = new Set<Promise<Map<string, TokenForms>>>();
    for (const token of new Set(tokens)) {
      const cached = this.cache.get(token);
      if (cached) {
        forms.set(token, cached);
        continue;
      }
      const pending = this.pending.get(token);
      if (pending) waits.add(pending);
      else missing.push(token);
    }
    if (missing.length) {
      const fetching = this.fetch(missing).finally(() => {
        for (const token of missing) this.pending.delete(token);
      });
      for (const token of missing) this.pending.set(token, fetching);
      waits.add(fetching);
    }
    for (const fetched of await Promise.all(waits)) {
      for (const [token, value] of fetched) forms.set(token, value);
    }
    return (token) => {
      const value = forms.get(token);
      if (!value) throw new Error(`the stems of "${token}" were not fetched (requiredTokens)`);
      return value;
    };
  }

  private async fetch(tokens: string[]): Promise<Map<string, TokenForms>> {
    this.statements++;
    const rows = (await this.query(STEMS_SQL, [tokens])) as StemRow[];
    const fetched = new Map<string, TokenForms>();
    for (const row of rows) {
      // Snowball dictionaries recognise every token: `stop` is never NULL (which would read as
      // neither a stop word nor a word to pair).
      const value: TokenForms = { fr: row.fr, de: row.de, en: row.en, stop: row.stop === true };
      fetched.set(row.token, value);
      this.cache.set(row.token, value);
    }
    return fetched;
  }
}
