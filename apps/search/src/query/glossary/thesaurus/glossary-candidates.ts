import { readFileSync } from 'node:fs';
import { DataFileError, listCell, tsvRows } from '../../../common/tsv';
import { sourceFilePath } from '../../../common/source-files';
import { LANGUAGES } from '../../analysis/languages';
import type { Language } from '../../analysis/languages';
import { foldWords } from '../../analysis/tokenizer';
import { plainSynonym } from './mythes';
import type { Thesaurus } from './mythes';

/**
 * The glossary's candidate words from the thesauri, and the reviewed verdicts on them
 * (GLOSSARY.md, "Words from the thesauri"): the generator (generate-glossary-candidates.ts)
 * proposes, for each concept and language, the synonyms the language's thesaurus gives for the
 * concept's words; a reviewer keeps in glossary-review.tsv what a traveller means by the concept,
 * and the kept forms are merged into travel-glossary.tsv. The thesauri are build-time inputs only.
 */

/** One proposed form: a synonym the thesaurus gives for `foundBy`, a word of the concept. */
export interface GlossaryCandidate {
  concept: string;
  language: Language;
  form: string;
  foundBy: string;
  partOfSpeech: string;
}

/** The domains of names of places and countries (the gazetteer's), whose names the thesauri do not propose. */
const NAME_DOMAINS = new Set(['place', 'country']);

/** A concept of names: of a name domain, every word capitalised ("Genève"; not "ville", a place's common word). */
const isNames = (concept: RawConcept) =>
  NAME_DOMAINS.has(concept.domain) &&
  LANGUAGES.every((language) => concept.words[language].every((word) => /^\p{Lu}/u.test(word)));

/** A concept of the glossary as written (its words unfolded), for the generator and the merge. */
export interface RawConcept {
  id: string;
  domain: string;
  words: Record<Language, string[]>;
}

/** The glossary's concepts with their words as written (travel-glossary.tsv; glossary.ts validates it). */
export function rawConcepts(text: string): RawConcept[] {
  const rows = tsvRows(
    text,
    ['id', 'domain', ...LANGUAGES],
    (line, reason) => new DataFileError('travel-glossary.tsv', line, reason),
  );
  return [...rows].map(({ columns: [id, domain, ...cells] }) => ({
    id,
    domain,
    words: Object.fromEntries(LANGUAGES.map((language, i) => [language, listCell(cells[i])])) as Record<
      Language,
      string[]
    >,
  }));
}

const folded = (word: string) => foldWords(word).join(' ');

/**
 * The candidates of each concept (but places and countries) in each language: every synonym the
 * language's thesaurus gives for one of the concept's words (its entry, looked up in lower case),
 * and every entry that gives one of them as a synonym ("pédestrement" for "à pied"), without the
 * thesaurus's notes (plainSynonym), that the concept does not hold yet (as folded); one row per
 * form, found by the first of the concept's words that gives it.
 */
export function glossaryCandidates(
  concepts: RawConcept[],
  thesauri: Partial<Record<Language, Thesaurus[]>>,
): GlossaryCandidate[] {
  const candidates: GlossaryCandidate[] = [];
  const entriesListing = new Map<Thesaurus, Map<string, { entry: string; partOfSpeech: string }[]>>();
  const listing = (thesaurus: Thesaurus, word: string) => {
    let index = entriesListing.get(thesaurus);
    if (!index) {
      index = new Map();
      for (const [entry, meanings] of thesaurus) {
        for (const meaning of meanings) {
          for (const synonym of meaning.words) {
            const key = plainSynonym(synonym)?.toLowerCase();
            if (key === undefined || key === entry) continue;
            const list = index.get(key) ?? [];
            list.push({ entry, partOfSpeech: meaning.partOfSpeech });
            index.set(key, list);
          }
        }
      }
      entriesListing.set(thesaurus, index);
    }
    return index.get(word) ?? [];
  };
  for (const concept of concepts) {
    if (isNames(concept)) continue;
    for (const language of LANGUAGES) {
      const held = new Set(concept.words[language].map(folded));
      const seen = new Set<string>();
      for (const word of concept.words[language]) {
        for (const thesaurus of thesauri[language] ?? []) {
          const meanings = [
            ...(thesaurus.get(word.toLowerCase()) ?? []),
            ...listing(thesaurus, word.toLowerCase()).map(({ entry, partOfSpeech }) => ({
              partOfSpeech,
              words: [entry],
            })),
          ];
          for (const meaning of meanings) {
            for (const synonym of meaning.words) {
              const form = plainSynonym(synonym);
              if (form === undefined) continue;
              const key = folded(form);
              if (key === '' || held.has(key) || seen.has(key)) continue;
              seen.add(key);
              candidates.push({
                concept: concept.id,
                language,
                form,
                foundBy: word,
                partOfSpeech: meaning.partOfSpeech.replace(/[()]/g, ''),
              });
            }
          }
        }
      }
    }
  }
  return candidates;
}

export type Verdict = 'keep' | 'reject';

/** One reviewed candidate (glossary-review.tsv). */
export interface ReviewedForm {
  line: number;
  concept: string;
  language: Language;
  form: string;
  foundBy: string;
  verdict: Verdict;
  reason: string;
}

/** The committed review of the thesauri's candidates. */
export const GLOSSARY_REVIEW_PATH = sourceFilePath('query', 'glossary', 'glossary-review.tsv');

export const REVIEW_HEADER = ['concept', 'language', 'form', 'found_by', 'verdict', 'reason'];

/** A review line that cannot be read: `line` is 1-based. */
export class ReviewError extends DataFileError {}

/**
 * Reads the review (`concept language form found_by verdict reason`, tab-separated, `#`
 * comments): refuses (naming the line) an unknown language or verdict, a form reviewed twice for
 * one concept and language, and a row without a reason.
 */
export function parseReview(text: string, source = 'glossary-review.tsv'): ReviewedForm[] {
  const reviewed: ReviewedForm[] = [];
  const seen = new Map<string, number>();
  for (const { line, columns } of tsvRows(
    text,
    REVIEW_HEADER,
    (at, reason) => new ReviewError(source, at, reason),
  )) {
    const [concept, language, form, foundBy, verdict, reason] = columns;
    if (!(LANGUAGES as readonly string[]).includes(language)) {
      throw new ReviewError(source, line, `unknown language "${language}"`);
    }
    if (verdict !== 'keep' && verdict !== 'reject') {
      throw new ReviewError(source, line, `verdict "${verdict}" is neither keep nor reject`);
    }
    if (!form || !reason) throw new ReviewError(source, line, 'a form and a reason are needed');
    const key = `${concept} ${language} ${folded(form)}`;
    const first = seen.get(key);
    if (first !== undefined)
      throw new ReviewError(source, line, `"${form}" is reviewed on line ${first} already`);
    seen.set(key, line);
    reviewed.push({ line, concept, language: language as Language, form, foundBy, verdict, reason });
  }
  return reviewed;
}

/** The committed review, read. */
export function loadReview(path = GLOSSARY_REVIEW_PATH): ReviewedForm[] {
  return parseReview(readFileSync(path, 'utf8'), path);
}

/**
 * The glossary's text with every kept form added to its concept's language cell (after the words
 * already there, `; `-separated), unless the cell holds it already (as folded); comments and
 * other lines unchanged. Throws for a kept form of a concept the glossary does not define.
 */
export function mergeKeptForms(glossaryText: string, reviewed: ReviewedForm[]): string {
  const kept = new Map<string, ReviewedForm[]>();
  for (const form of reviewed) {
    if (form.verdict !== 'keep') continue;
    const list = kept.get(form.concept) ?? [];
    list.push(form);
    kept.set(form.concept, list);
  }
  const merged = new Set<string>();
  const lines = glossaryText.split('\n').map((line) => {
    if (line.startsWith('#') || line.trim() === '') return line;
    const [id, domain, ...cells] = line.split('\t');
    const forms = kept.get(id);
    if (!forms || cells.length !== LANGUAGES.length) return line;
    merged.add(id);
    const updated = LANGUAGES.map((language, i) => {
      const words = listCell(cells[i]);
      const held = new Set(words.map(folded));
      for (const form of forms) {
        if (form.language !== language || held.has(folded(form.form))) continue;
        held.add(folded(form.form));
        words.push(form.form);
      }
      return words.join('; ');
    });
    return [id, domain, ...updated].join('\t');
  });
  const unknown = [...kept.keys()].filter((id) => !merged.has(id));
  if (unknown.length)
    throw new Error(`kept forms of concepts the glossary does not define: ${unknown.join(', ')}`);
  return lines.join('\n');
}

/** The candidates as a TSV, with the verdict the review gives each (blank: not reviewed yet). */
export function candidatesTsv(candidates: GlossaryCandidate[], reviewed: ReviewedForm[]): string {
  const verdicts = new Map(
    reviewed.map((form) => [`${form.concept} ${form.language} ${folded(form.form)}`, form.verdict]),
  );
  const rows = candidates.map((candidate) =>
    [
      candidate.concept,
      candidate.language,
      candidate.form,
      candidate.foundBy,
      candidate.partOfSpeech,
      verdicts.get(`${candidate.concept} ${candidate.language} ${folded(candidate.form)}`) ?? '',
    ].join('\t'),
  );
  return ['concept\tlanguage\tform\tfound_by\tpart_of_speech\tverdict', ...rows, ''].join('\n');
}
