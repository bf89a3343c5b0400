import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Each rule of the text analysis is defined once, in src/query/analysis: the typo and
 * compound constants, the query words' kinds, the score's constants, the edit distance and the
 * compound splitter. Read from the source text of the service's production files (specs aside;
 * the migrations aside, which hold the retired SQL functions a rolling release still reads).
 */
const SRC = join(__dirname, '..', '..');

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : productionFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The file's code without its comments (a rule cited in a comment is no definition). */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1');
}

const sources = productionFiles(SRC).map((path) => ({
  file: relative(SRC, path).split('\\').join('/'),
  code: codeOf(readFileSync(path, 'utf8')),
}));

/** The files whose code matches `pattern`. */
function filesMatching(pattern: RegExp): string[] {
  return sources.filter(({ code }) => pattern.test(code)).map(({ file }) => file);
}

/** The files declaring a type or an interface whose name matches `name`, once per declaration. */
function typeDeclarations(name: RegExp): string[] {
  const declared = new RegExp(`\\b(?:type|interface)\\s+(${name.source})\\b`, 'g');
  return sources.flatMap(({ file, code }) => Array.from(code.matchAll(declared), () => file));
}

/** The files declaring a constant or a function whose name matches `name`, once per declaration. */
function declarations(name: RegExp): string[] {
  const declared = new RegExp(`\\b(?:const|let|var|function)\\s+(${name.source})\\b`, 'g');
  return sources.flatMap(({ file, code }) => Array.from(code.matchAll(declared), () => file));
}

/** The folders of the text analysis and its users, where a bare rule number would be a copy. */
const ANALYSIS_FOLDERS = /^(query\/(analysis|glossary|gazetteer)|indexes\/text-index)\//;
/** The folders that score or index the text side (the relevance's reference BM25 is a baseline of its own). */
const SCORING_FOLDERS =
  /^(query\/analysis|indexes\/(text-index|reindex)|sql|ranking|request|http\/travels)\//;

describe('one definition of each analysis rule', () => {
  it('reads the service source', () => {
    expect(sources.length).toBeGreaterThan(50);
    expect(sources.map(({ file }) => file)).toContain('query/analysis/typos.ts');
  });

  it('TYPO_MIN_LENGTH: once, in analysis/typos.ts, and no bare typo length beside it', () => {
    expect(declarations(/TYPO_MIN_LENGTH/)).toEqual(['query/analysis/typos.ts']);
    expect(declarations(/TWO_EDITS_MIN_LENGTH/)).toEqual(['query/analysis/typos.ts']);
    // a word length compared with 5, 7 or 9 (the typo lengths) outside the rule's module
    const bare = filesMatching(/\.length\s*(?:>=|<=|<|>)\s*[579]\b/);
    expect(bare).toEqual([]);
  });

  it('MIN_PART: once, in analysis/compounds.ts, with every other part length', () => {
    expect(declarations(/MIN_PART/)).toEqual(['query/analysis/compounds.ts']);
    // no other minimum of a compound's part under another name (MIN_COMPOUND_PART …)
    expect(declarations(/\w*_PART/).filter((file) => file !== 'query/analysis/compounds.ts')).toEqual([]);
  });

  it('the compound weight: once, in analysis/compounds.ts', () => {
    expect(declarations(/\w*COMPOUND\w*WEIGHT\w*/)).toEqual(['query/analysis/compounds.ts']);
    // the weight as a bare number beside it
    const copies = sources
      .filter(({ file }) => ANALYSIS_FOLDERS.test(file) && file !== 'query/analysis/compounds.ts')
      .filter(({ code }) => /\b0\.8\b/.test(code))
      .map(({ file }) => file);
    expect(copies).toEqual([]);
  });

  it("the query words' kinds: once, in analysis/query-words.ts, and no word numbered by convention", () => {
    expect(typeDeclarations(/QueryWord/)).toEqual(['query/analysis/query-words.ts']);
    // a pair or a compound's tail as a number (PAIR_WORD + i, -i)
    expect(declarations(/\w*PAIR_WORD\w*/)).toEqual([]);
    const numbered = filesMatching(/\b1000\s*\+|\+\s*1000\b|%\s*1000\b/);
    expect(numbered.filter((file) => ANALYSIS_FOLDERS.test(file) || SCORING_FOLDERS.test(file))).toEqual([]);
  });

  it("the score's constants: once, in analysis/similarity.ts", () => {
    const constants =
      /IDF_EXPONENT|FREQUENT_WORD_SHARE|\w+_CONCEPT|\w*K1|B|\w*BOOSTS?|\w+_WEIGHTS?|SCALE|roundHalfEven|idfOf/;
    const copies = (files: string[]) =>
      files.filter((file) => SCORING_FOLDERS.test(file) && file !== 'query/analysis/similarity.ts');
    expect(
      declarations(constants).filter((file) => file === 'query/analysis/similarity.ts').length,
    ).toBeGreaterThan(15);
    // the compound weight, whose own rule is above
    expect(copies(declarations(constants))).toEqual(['query/analysis/compounds.ts']);
    // BM25's k1, b and the field boosts as bare numbers beside it
    expect(copies(filesMatching(/\b(?:1\.2|0\.75|3\.0|1\.5)\b/))).toEqual([]);
  });

  it('the edit distance: one function, in analysis/string-metrics.ts', () => {
    expect(declarations(/\w*(?:[Ll]evenshtein|[Ee]ditDistance|EDIT_DISTANCE)\w*/)).toEqual([
      'query/analysis/string-metrics.ts',
    ]);
    // the recurrence itself (a substitution's cost on the diagonal), under whatever name
    expect(filesMatching(/\[\w+ - 1\]\s*\+\s*cost\b/)).toEqual(['query/analysis/string-metrics.ts']);
  });

  it('the compound splitter: once, in analysis/compounds.ts', () => {
    expect(declarations(/bestSplit/)).toEqual(['query/analysis/compounds.ts']);
    // a word cut in a head and a tail at the same position, or at a distance from its end
    const cutting = sources
      .filter(({ code }) => {
        const heads = new Set(Array.from(code.matchAll(/\.slice\(0,\s*(\w+)\)/g), ([, at]) => at));
        const tails = Array.from(code.matchAll(/\.slice\((\w+)\)/g), ([, at]) => at);
        return tails.some((at) => heads.has(at)) || /\.slice\(\w+\.length - \w+\)/.test(code);
      })
      .map(({ file }) => file);
    expect(cutting).toEqual(['query/analysis/compounds.ts']);
  });
});
