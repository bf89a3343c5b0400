import { readFile } from 'node:fs/promises';
import { describeSource } from '../../catalogue/catalogue-source';
import { foldWords } from '../analysis/tokenizer';
import type { ExpansionRule } from './query-expander';

/** A synonyms file that cannot be used: `line` is 1-based (0: the file as a whole). */
export class SynonymsError extends Error {
  constructor(
    readonly source: string,
    readonly line: number,
    reason: string,
  ) {
    super(line ? `${source}, line ${line}: ${reason}` : `${source}: ${reason}`);
    this.name = 'SynonymsError';
  }
}

/**
 * Operator synonyms in the format Solr's SynonymGraphFilter reads (Elasticsearch's `synonyms_path`
 * and Meilisearch's synonyms say the same): one set a line, `#` starts a comment;
 * - `a, b, c`: multi-way, each word or phrase expands to the others;
 * - `a, b => c, d`: one-way, `a` and `b` expand to `c` and `d` (and only those; unlike Solr, the
 *   search keeps its own word: an expansion adds to a search, it never replaces a word).
 * Words are folded as the text side folds a search. Refuses, naming the line, a second `=>`, an
 * empty side or word, a multi-way set of one word, and a word of nothing but punctuation.
 */
export function parseSynonyms(text: string, source: string): ExpansionRule[] {
  const rules: ExpansionRule[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const content = raw.replace(/#.*$/, '').trim();
    if (!content) return;
    const sides = content.split('=>');
    if (sides.length > 2) throw new SynonymsError(source, line, 'more than one "=>"');
    const [from, to] = sides.map((side, i) => wordsOf(side, source, line, i === 0 ? 'left' : 'right'));
    if (to) {
      rules.push({ kind: 'synonym', from, to });
    } else {
      if (from.length < 2) throw new SynonymsError(source, line, 'a set needs two words or more ("a, b")');
      rules.push({ kind: 'synonym', from, to: from });
    }
  });
  return rules;
}

function wordsOf(side: string, source: string, line: number, name: string): string[] {
  if (!side.trim()) throw new SynonymsError(source, line, `nothing on the ${name} of "=>"`);
  return side.split(',').map((word, i) => {
    if (!word.trim()) throw new SynonymsError(source, line, `word ${i + 1} is empty`);
    const folded = foldWords(word).join(' ');
    if (!folded) throw new SynonymsError(source, line, `"${word.trim()}" holds no letter or digit`);
    return folded;
  });
}

/** Reads a synonyms source: a file path (or `file://`) or an `http(s)://` URL answering the text. */
export async function readSynonymsSource(source: string, timeoutMs: number): Promise<ExpansionRule[]> {
  const shown = describeSource(source);
  let text: string;
  if (/^https?:\/\//i.test(source)) {
    let response: Response;
    try {
      response = await fetch(source, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new SynonymsError(shown, 0, `cannot fetch: ${(error as Error).message}`);
    }
    if (!response.ok) throw new SynonymsError(shown, 0, `HTTP ${response.status}`);
    text = await response.text();
  } else {
    try {
      text = await readFile(source.replace(/^file:\/\//, ''), 'utf8');
    } catch (error) {
      throw new SynonymsError(shown, 0, `cannot read: ${(error as Error).message}`);
    }
  }
  return parseSynonyms(text, shown);
}
