import { readFileSync } from 'node:fs';
import { sourceFilePath } from '../../common/source-files';
import { LANGUAGES } from '../analysis/languages';
import type { Language } from '../analysis/languages';
import { foldWords } from '../analysis/tokenizer';
import { DataFileError, listCell, tsvRows } from '../../common/tsv';

/**
 * The travel glossary (travel-glossary.tsv, reviewed data: GLOSSARY.md): concepts of travel with
 * their words in French, German, English and Italian. A query word of one language expands to the
 * words of its concepts in the others (query-expander.ts).
 */

export const GLOSSARY_DOMAINS = [
  'activity',
  'landscape',
  'place',
  'country',
  'accommodation',
  'food',
  'transport',
  'season',
  'audience',
  'culture',
  'wellness',
  'general',
] as const;
export type GlossaryDomain = (typeof GLOSSARY_DOMAINS)[number];

export interface GlossaryConcept {
  id: string;
  domain: GlossaryDomain;
  /** Per language, the concept's words folded as the text side folds them (analysis/tokenizer.ts, foldWords). */
  words: Record<Language, string[]>;
}

/** The committed glossary (same path from dist; `files` of package.json ships it). */
export const TRAVEL_GLOSSARY_PATH = sourceFilePath('query', 'glossary', 'travel-glossary.tsv');

/** A glossary line that cannot be read: `line` is 1-based, as an editor shows it. */
export class GlossaryError extends DataFileError {}

const HEADER = ['id', 'domain', ...LANGUAGES];
const HIERARCHY_HEADER = ['broader', 'narrower'];
const CONCEPT_ID = /^[a-z][a-z0-9_]*$/;

/**
 * Reads the glossary's text: `#` lines are comments, the first other line is the header
 * `id domain fr de en it` (tab-separated), then one concept a line, its words separated by `;`.
 * Refuses (GlossaryError naming the line) a wrong header or column count, a malformed or repeated
 * id, an unknown domain, and a language without any word.
 */
export function parseGlossary(text: string, source = 'travel-glossary.tsv'): GlossaryConcept[] {
  const concepts: GlossaryConcept[] = [];
  const ids = new Map<string, number>();
  const rows = tsvRows(text, HEADER, (at, reason) => new GlossaryError(source, at, reason));
  for (const { line, columns } of rows) {
    const [id, domain, ...cells] = columns;
    if (!CONCEPT_ID.test(id)) throw new GlossaryError(source, line, `malformed concept id "${id}"`);
    const first = ids.get(id);
    if (first !== undefined) {
      throw new GlossaryError(source, line, `concept "${id}" is already defined on line ${first}`);
    }
    ids.set(id, line);
    if (!(GLOSSARY_DOMAINS as readonly string[]).includes(domain)) {
      throw new GlossaryError(source, line, `unknown domain "${domain}" (${GLOSSARY_DOMAINS.join(', ')})`);
    }
    const words = {} as Record<Language, string[]>;
    LANGUAGES.forEach((language, i) => {
      const folded = cells[i]
        .split(';')
        .map((word) => foldWords(word).join(' '))
        .filter((word) => word !== '');
      if (!folded.length) throw new GlossaryError(source, line, `concept "${id}" has no ${language} word`);
      words[language] = [...new Set(folded)];
    });
    concepts.push({ id, domain: domain as GlossaryDomain, words });
  }
  return concepts;
}

/** The committed glossary, read and validated (at start). */
export function loadTravelGlossary(path = TRAVEL_GLOSSARY_PATH): GlossaryConcept[] {
  return parseGlossary(readFileSync(path, 'utf8'), path);
}

/** The committed broader-narrower relation of the glossary's concepts (same path from dist). */
export const CONCEPT_HIERARCHY_PATH = sourceFilePath('query', 'glossary', 'concept-hierarchy.tsv');

/** Each broader concept's id with the ids of the concepts it includes. */
export type ConceptHierarchy = Map<string, string[]>;

/**
 * Reads the hierarchy's text (`broader`, then the narrower ids separated by `;`): refuses
 * (GlossaryError naming the line) a wrong header or column count, an id the glossary does not
 * define, a broader concept given twice, and a concept that would include itself (directly or
 * through others).
 */
export function parseConceptHierarchy(
  text: string,
  concepts: GlossaryConcept[],
  source = 'concept-hierarchy.tsv',
): ConceptHierarchy {
  const known = new Set(concepts.map((concept) => concept.id));
  const hierarchy: ConceptHierarchy = new Map();
  const rows = tsvRows(text, HIERARCHY_HEADER, (at, reason) => new GlossaryError(source, at, reason));
  for (const { line, columns } of rows) {
    const [broader, cell] = columns;
    const narrower = listCell(cell);
    for (const id of [broader, ...narrower]) {
      if (!known.has(id)) throw new GlossaryError(source, line, `unknown concept "${id}"`);
    }
    if (hierarchy.has(broader)) throw new GlossaryError(source, line, `"${broader}" is given twice`);
    hierarchy.set(broader, narrower);
    for (const id of narrower) {
      const seen = new Set<string>();
      const inside = (concept: string): boolean =>
        concept === broader ||
        (!seen.has(concept) && (seen.add(concept), (hierarchy.get(concept) ?? []).some(inside)));
      if (inside(id))
        throw new GlossaryError(source, line, `"${broader}" would include itself through "${id}"`);
    }
  }
  return hierarchy;
}

/** The committed hierarchy, read and validated against the glossary (at start). */
export function loadConceptHierarchy(
  concepts: GlossaryConcept[],
  path = CONCEPT_HIERARCHY_PATH,
): ConceptHierarchy {
  return parseConceptHierarchy(readFileSync(path, 'utf8'), concepts, path);
}

/** The committed links between near concepts and from items to their themes (same path from dist). */
export const CONCEPT_LINKS_PATH = sourceFilePath('query', 'glossary', 'concept-links.tsv');

/**
 * How two concepts are linked: `near`, both ways (a beach holiday and the beach, sailing and a
 * cruise); `item`, from an item to the theme offers are filed under (a wine to gastronomy, a
 * castle to culture).
 */
export const LINK_KINDS = ['near', 'item'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/** Each concept's id with the concepts it reaches through a link (both ways for `near`). */
export type ConceptLinks = Map<string, string[]>;

const LINKS_HEADER = ['from', 'to', 'kind'];

/**
 * Reads the links' text (`from`, `to`, `kind`): refuses (GlossaryError naming the line) a wrong
 * header or column count, an id the glossary does not define, an unknown kind, a link of a concept
 * to itself and a link given twice (either way). A direction the hierarchy already covers (a broader
 * concept reaching a narrower one) is left to it: a near link between them reaches only the broader.
 */
export function parseConceptLinks(
  text: string,
  concepts: GlossaryConcept[],
  hierarchy: ConceptHierarchy = new Map(),
  source = 'concept-links.tsv',
): ConceptLinks {
  const known = new Set(concepts.map((concept) => concept.id));
  const links: ConceptLinks = new Map();
  const given = new Map<string, number>();
  const includes = (broader: string, narrower: string, seen = new Set<string>()): boolean =>
    (hierarchy.get(broader) ?? []).some(
      (inside) =>
        inside === narrower || (!seen.has(inside) && (seen.add(inside), includes(inside, narrower, seen))),
    );
  const add = (from: string, to: string) => {
    if (includes(from, to)) return;
    const list = links.get(from) ?? [];
    if (!list.includes(to)) list.push(to);
    links.set(from, list);
  };
  const rows = tsvRows(text, LINKS_HEADER, (at, reason) => new GlossaryError(source, at, reason));
  for (const { line, columns } of rows) {
    const [from, to, kind] = columns;
    for (const id of [from, to]) {
      if (!known.has(id)) throw new GlossaryError(source, line, `unknown concept "${id}"`);
    }
    if (!(LINK_KINDS as readonly string[]).includes(kind)) {
      throw new GlossaryError(source, line, `unknown kind "${kind}" (${LINK_KINDS.join(', ')})`);
    }
    if (from === to) throw new GlossaryError(source, line, `"${from}" is linked to itself`);
    const pair = [from, to].sort().join(' ');
    const first = given.get(pair);
    if (first !== undefined) {
      throw new GlossaryError(source, line, `"${from}" and "${to}" are linked on line ${first} already`);
    }
    given.set(pair, line);
    add(from, to);
    if (kind === 'near') add(to, from);
  }
  return links;
}

/** The committed links, read and validated against the glossary and its hierarchy (at start). */
export function loadConceptLinks(
  concepts: GlossaryConcept[],
  hierarchy: ConceptHierarchy,
  path = CONCEPT_LINKS_PATH,
): ConceptLinks {
  return parseConceptLinks(readFileSync(path, 'utf8'), concepts, hierarchy, path);
}
