import { AnalysisWork, isAnalysable } from '../../query/analysis/analysis-budget';
import { COMPOUND_MIN_LENGTH, splitIntoWords, splitPartsOf } from '../../query/analysis/compounds';
import { StemCache } from '../../query/analysis/stems';
import type { SqlQuery, StemsOf, TokenForms } from '../../query/analysis/stems';
import { characterLength } from '../../query/analysis/tokenizer';

/** A compound lexeme of the offers and one of its parts. */
export interface CompoundPart {
  lexeme: string;
  part: string;
}

/** Tokens (or forms) sent to PostgreSQL per statement. */
const TOKENS_PER_STATEMENT = 50_000;

/**
 * The parts of the offers' compound words (D-86), split by the query's splitter
 * (analysis/compounds.ts, splitIntoWords): each lexeme of COMPOUND_MIN_LENGTH+ letters whose cut
 * leaves two words the index holds (as they are, or as one of their stems; a head also without a
 * joint "s") gives its head and its tail, each as the first of its forms the index holds (the part
 * itself before its stems), when that is not the lexeme itself. Lexemes are stems already
 * ("tageswander"), as the query's words are looked up as stems: "tages|wander" gives "tag" and
 * "wander", the German stem of "Wanderung" and "wandern". Unbudgeted: the index splits every word.
 */
export function compoundPartsOf(
  lexemes: Iterable<string>,
  stems: StemsOf,
  holds: (term: string) => boolean,
): CompoundPart[] {
  const parts: CompoundPart[] = [];
  for (const lexeme of lexemes) {
    if (!isSplittable(lexeme)) continue;
    const split = splitIntoWords(lexeme, stems, holds, new AnalysisWork(Infinity, Infinity));
    if (!split) continue;
    const found = new Set<string>();
    for (const forms of [split.head, split.tail]) {
      const part = forms[0];
      if (part === undefined || part === lexeme || found.has(part)) continue;
      found.add(part);
      parts.push({ lexeme, part });
    }
  }
  return parts;
}

/** A lexeme the index splits: one word of COMPOUND_MIN_LENGTH+ letters the analysis would read. */
export function isSplittable(lexeme: string): boolean {
  return !lexeme.includes(' ') && characterLength(lexeme) >= COMPOUND_MIN_LENGTH && isAnalysable(lexeme);
}

/**
 * Fills `offer_compound_parts` (sql/postings.ts, offerWordsSql) in the reindex's apply
 * transaction: the lexemes of `offer_words` split against what the index holds, the offers'
 * words written now and the terms of the generation before (`search_terms`), the parts' stems
 * fetched from PostgreSQL (`ts_lexize`, as the query's). Returns how many parts were written.
 */
export async function writeOfferCompoundParts(query: SqlQuery): Promise<number> {
  const lexemes = (
    (await query('SELECT lexeme FROM offer_words WHERE char_length(lexeme) >= $1', [
      COMPOUND_MIN_LENGTH,
    ])) as { lexeme: string }[]
  )
    .map((row) => row.lexeme)
    .filter(isSplittable)
    .sort();
  if (lexemes.length === 0) return 0;
  const tokens = new Set<string>();
  for (const lexeme of lexemes) for (const part of splitPartsOf(lexeme)) tokens.add(part);
  const stemCache = new StemCache(query, tokens.size + 1);
  const forms = new Map<string, TokenForms>();
  for (const chunk of chunks([...tokens])) {
    const stemsOf = await stemCache.formsOf(chunk);
    for (const token of chunk) forms.set(token, stemsOf(token));
  }
  const candidates = new Set<string>();
  for (const [token, form] of forms) {
    for (const candidate of [token, form.fr, form.de, form.en]) if (candidate) candidates.add(candidate);
  }
  const held = new Set<string>();
  for (const chunk of chunks([...candidates])) {
    const rows = (await query(
      `SELECT f AS term FROM unnest($1::text[]) f
       WHERE EXISTS (SELECT 1 FROM offer_words w WHERE w.lexeme = f)
         OR EXISTS (SELECT 1 FROM search_terms t WHERE t.term = f COLLATE "C")`,
      [chunk],
    )) as { term: string }[];
    for (const row of rows) held.add(row.term);
  }
  const stems: StemsOf = (token) => {
    const found = forms.get(token);
    if (!found) throw new Error(`the stems of "${token}" were not fetched`);
    return found;
  };
  const parts = compoundPartsOf(lexemes, stems, (term) => held.has(term));
  for (let from = 0; from < parts.length; from += TOKENS_PER_STATEMENT) {
    const slice = parts.slice(from, from + TOKENS_PER_STATEMENT);
    await query(
      'INSERT INTO offer_compound_parts (lexeme, part) SELECT * FROM unnest($1::text[], $2::text[])',
      [slice.map((part) => part.lexeme), slice.map((part) => part.part)],
    );
  }
  return parts.length;
}

function chunks<T>(items: T[]): T[][] {
  const result: T[][] = [];
  for (let from = 0; from < items.length; from += TOKENS_PER_STATEMENT)
    result.push(items.slice(from, from + TOKENS_PER_STATEMENT));
  return result;
}
