import { foldWords, GLOSSARY_LANGUAGES } from './glossary';
import type { GlossaryConcept } from './glossary';

/** Where an expanded word comes from: a glossary concept, or an operator synonym. */
export type ExpansionKind = 'glossary' | 'synonym';

/** Query words that expand: `from` (folded phrases) expand to `to` (folded phrases). */
export interface ExpansionRule {
  kind: ExpansionKind;
  from: string[];
  to: string[];
}

/** A word a search gains: `term` (folded, words separated by one space) counts for the query word `token`. */
export interface QueryExpansion {
  token: string;
  term: string;
  kind: ExpansionKind;
}

/** Each concept is a multi-way rule: any of its words expands to all the others. */
export function glossaryRules(concepts: GlossaryConcept[]): ExpansionRule[] {
  return concepts.map((concept) => {
    const words = [...new Set(GLOSSARY_LANGUAGES.flatMap((language) => concept.words[language]))];
    return { kind: 'glossary', from: words, to: words };
  });
}

/** The longest phrase of a search looked up as one (`settimana bianca`, `bord du lac`). */
const MAX_PHRASE_WORDS = 3;
/** Inflection endings tried off a word the rules do not hold ("wanderungen" → "wanderung"). */
const ENDINGS = ['en', 'er', 'es', 's', 'n', 'e', 'x'];
const MIN_STEM = 4;
const MIN_COMPOUND_PART = 3;

/**
 * Expands a search with the rules' words, in memory (built once at start, and again when operator
 * synonyms are reloaded). Each word of the search (folded and split as the text side splits it)
 * is looked up:
 * 1. as the start of a phrase of 2 or 3 words, and on its own;
 * 2. else without an inflection ending ("wanderungen", "walks");
 * 3. else (5+ letters) as a misspelling of a rule word within one edit (two for 9+ letters);
 * 4. else (6+ letters) as a compound of two rule words, or of one of 5+ letters and anything
 *    ("seewanderung" → "see" + "wanderung", "museumsbesuche" → "museum"); a compound a rule
 *    holds (8+ letters) also expands as its two parts ("bergwanderung" → "berg" + "wanderung").
 * Its expansions are the words of the rules found, but itself; at most `maxTermsPerWord` a word.
 */
export class QueryExpander {
  private readonly rulesByWord = new Map<string, ExpansionRule[]>();
  private readonly singleWords: string[];

  constructor(
    rules: ExpansionRule[],
    private readonly maxTermsPerWord = 40,
  ) {
    for (const rule of rules) {
      for (const word of rule.from) {
        const known = this.rulesByWord.get(word);
        if (known) known.push(rule);
        else this.rulesByWord.set(word, [rule]);
      }
    }
    this.singleWords = [...this.rulesByWord.keys()].filter((word) => !word.includes(' '));
  }

  /** How many words the rules expand. */
  get size(): number {
    return this.rulesByWord.size;
  }

  /** The expansions of a search's first `maxWords` words (the words the text side reads). */
  expand(search: string, maxWords: number): QueryExpansion[] {
    const words = foldWords(search).slice(0, maxWords);
    const found = new Map<string, { rules: Set<ExpansionRule>; own: Set<string> }>();
    const add = (token: string, own: string[], rules: ExpansionRule[]) => {
      const entry = found.get(token) ?? { rules: new Set<ExpansionRule>(), own: new Set<string>([token]) };
      for (const form of own) entry.own.add(form);
      for (const rule of rules) entry.rules.add(rule);
      found.set(token, entry);
    };
    words.forEach((word, i) => {
      for (let length = MAX_PHRASE_WORDS; length >= 2; length--) {
        if (i + length > words.length) continue;
        const phraseWords = words.slice(i, i + length);
        const phrase = phraseWords.join(' ');
        const rules = this.rulesByWord.get(phrase);
        // a phrase's expansions count for its longest word (the last of equals): "am see" → "see"
        if (rules) add(longest(phraseWords), [phrase], rules);
      }
      const single = this.lookUp(word);
      if (single) add(word, single.forms, single.rules);
    });
    const expansions: QueryExpansion[] = [];
    for (const [token, { rules, own }] of found) {
      // the rules' words in turn, so that the cap keeps some of each rule
      const terms = new Set<string>();
      const lists = [...rules].map((rule) => rule.to.filter((term) => !own.has(term)));
      for (let i = 0; lists.some((list) => i < list.length); i++) {
        for (const list of lists) if (i < list.length) terms.add(list[i]);
      }
      for (const term of [...terms].slice(0, this.maxTermsPerWord)) {
        expansions.push({ token, term, kind: [...rules][0].kind });
      }
    }
    return expansions;
  }

  private lookUp(word: string): Found | undefined {
    const inflected = this.inflected(word);
    if (inflected) {
      // a compound the glossary holds also means its parts ("bergwanderung": a mountain hike, a mountain, a hike)
      const parts = word.length >= 8 ? this.compound(word, true) : undefined;
      return parts
        ? { forms: [...inflected.forms, ...parts.forms], rules: [...inflected.rules, ...parts.rules] }
        : inflected;
    }
    if (word.length >= 5) {
      const misspelt = this.misspelt(word);
      if (misspelt) return misspelt;
    }
    return word.length >= 6 ? this.compound(word) : undefined;
  }

  private inflected(word: string): Found | undefined {
    const exact = this.rulesByWord.get(word);
    if (exact) return { forms: [word], rules: exact };
    for (const ending of ENDINGS) {
      if (!word.endsWith(ending) || word.length - ending.length < MIN_STEM) continue;
      const stem = word.slice(0, -ending.length);
      const rules = this.rulesByWord.get(stem);
      if (rules) return { forms: [stem], rules };
    }
    return undefined;
  }

  private misspelt(word: string): Found | undefined {
    const maxEdits = word.length >= 9 ? 2 : 1;
    let best: { form: string; edits: number } | undefined;
    for (const candidate of this.singleWords) {
      if (Math.abs(candidate.length - word.length) > maxEdits || candidate.length < 5) continue;
      const edits = editDistance(word, candidate, maxEdits);
      if (
        edits <= maxEdits &&
        (!best || edits < best.edits || (edits === best.edits && candidate < best.form))
      ) {
        best = { form: candidate, edits };
      }
    }
    return best ? { forms: [best.form], rules: this.rulesByWord.get(best.form) ?? [] } : undefined;
  }

  private compound(word: string, bothParts = false): Found | undefined {
    let best: (Found & { score: number }) | undefined;
    for (let cut = MIN_COMPOUND_PART; cut <= word.length - MIN_COMPOUND_PART; cut++) {
      const head = word.slice(0, cut);
      const tail = word.slice(cut);
      // a German joint "s" between the parts ("museumsbesuche")
      const headFound =
        this.inflected(head) ??
        (head.endsWith('s') && head.length > 4 ? this.inflected(head.slice(0, -1)) : undefined);
      const tailFound = this.inflected(tail);
      const parts = [headFound, tailFound].filter((part) => part !== undefined);
      if (!parts.length || (bothParts && parts.length < 2)) continue;
      const lengths = [headFound ? head.length : 0, tailFound ? tail.length : 0];
      // both parts known beat one; then the more balanced split, or the longer known part
      const score = parts.length === 2 ? 100 + Math.min(...lengths) : Math.max(...lengths);
      if (parts.length === 1 && score < 5) continue;
      if (!best || score > best.score) {
        best = {
          forms: parts.flatMap((part) => part.forms),
          rules: parts.flatMap((part) => part.rules),
          score,
        };
      }
    }
    return best;
  }
}

/** The rules a word found, and the forms it was found as (never expanded to themselves). */
interface Found {
  forms: string[];
  rules: ExpansionRule[];
}

function longest(words: string[]): string {
  return words.reduce((kept, word) => (word.length >= kept.length ? word : kept));
}

/** Levenshtein distance, stopping early once every path is past `max` (then returns max + 1). */
export function editDistance(a: string, b: string, max: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      rowMin = Math.min(rowMin, current[j]);
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length];
}
