import { AnalysisWork } from '../analysis/analysis-budget';
import { LANGUAGES } from '../analysis/languages';
import { isOtherEnding } from './other-ending';
import { accentsOf, dictionaryFiles, MAX_SPELLINGS, RealWords, spellingsOf } from './real-words';

describe('RealWords (Hunspell dictionaries)', () => {
  let realWords: RealWords;

  beforeAll(async () => {
    realWords = await RealWords.load();
  });

  it('reads no dictionary before a word is checked, then only the languages checked', async () => {
    const fresh = await RealWords.load();
    expect(fresh.loadedLanguages).toEqual([]);
    expect(fresh.isWord('montagnes', ['fr'])).toBe(true);
    expect(fresh.loadedLanguages).toEqual(['fr']);
    expect(fresh.loads.map((load) => load.language)).toEqual(['fr']);
  });

  it.each([
    ['parks', 'en'],
    ['lakes', 'en'],
    ['beaches', 'en'],
    ['august', 'en'],
    ['montagnes', 'fr'],
    ['eglise', 'fr'],
    ['randonnee', 'fr'],
    ['aout', 'fr'],
    ['berge', 'de'],
    ['wanderungen', 'de'],
    ['strasse', 'de'],
    ['gemutlich', 'de'],
    ['marz', 'de'],
    ['spiaggia', 'it'],
    ['citta', 'it'],
    ['pittoresqu', 'fr'],
    ['canos', 'en'],
  ] as const)('knows the folded word %s in %s', (word, language) => {
    expect(realWords.isWord(word, [language])).toBe(true);
  });

  it.each(['zemratt', 'vneise', 'islnd', 'patagonai', 'skii', 'yoha', 'montagens'])(
    'knows no misspelling %s in any language',
    (word) => {
      expect(realWords.isWord(word, LANGUAGES)).toBe(false);
    },
  );

  it('checks only the languages given', () => {
    expect(realWords.isWord('montagnes', ['en'])).toBe(false);
    expect(realWords.isWord('montagnes', ['en', 'fr'])).toBe(true);
  });

  it('checks no short word, number or word too long to analyse', () => {
    expect(realWords.isWord('ski', LANGUAGES)).toBe(false);
    expect(realWords.isWord('2024', LANGUAGES)).toBe(false);
    expect(realWords.isWord('a'.repeat(40), LANGUAGES)).toBe(false);
  });

  it('counts each spelling tried on the search, the same when the answer is remembered', () => {
    const first = new AnalysisWork();
    expect(realWords.isWord('montagens', LANGUAGES, first)).toBe(false);
    expect(first.bySteps.lookups).toBeGreaterThan(4 * 'montagens'.length);
    expect(first.bySteps.lookups % 'montagens'.length).toBe(0);
    const again = new AnalysisWork();
    realWords.isWord('montagens', LANGUAGES, again);
    expect(again.bySteps.lookups).toBe(first.bySteps.lookups);
  });

  it('knows a common word, a German noun among them, and no name the dictionaries write with a capital', () => {
    // isWord accepts a name (Hunspell takes a capital for any word): the common-word check does not
    expect(realWords.isWord('masai', ['en'])).toBe(true);
    expect(realWords.isCommonWord('masai', LANGUAGES)).toBe(false);
    expect(realWords.isWord('mara', ['fr', 'en', 'it'])).toBe(true);
    expect(realWords.isCommonWord('mara', ['fr', 'de', 'en'])).toBe(false);
    // … though a name may be a common word of another language (Italian's dictionary has `mara`)
    expect(realWords.isCommonWord('mara', ['it'])).toBe(true);
    expect(realWords.isWord('london', ['en'])).toBe(true);
    expect(realWords.isCommonWord('london', ['en'])).toBe(false);
    // German writes its nouns with a capital: they are common words
    expect(realWords.isCommonWord('tage', ['de'])).toBe(true);
    expect(realWords.isCommonWord('kindern', ['de'])).toBe(true);
    expect(realWords.isCommonWord('tranquillo', ['it'])).toBe(true);
    expect(realWords.isCommonWord('canals', ['en'])).toBe(true);
    expect(realWords.isCommonWord('voudrais', ['fr'])).toBe(true);
    // a hyphenated word is looked up whole
    expect(realWords.isCommonWord('bien-etre', ['fr'])).toBe(true);
    expect(realWords.isWord('bien-etre', ['fr'])).toBe(true);
    expect(realWords.isCommonWord('qqxv-zzkw', LANGUAGES)).toBe(false);
  });

  it('reads a dictionary ahead of its first check, once (the preload)', async () => {
    const fresh = await RealWords.load();
    expect(fresh.preload('de')).toBe(true);
    expect(fresh.preload('de')).toBe(false);
    expect(fresh.loadedLanguages).toEqual(['de']);
    expect(fresh.isWord('wanderungen', ['de'])).toBe(true);
    expect(fresh.loads.map((load) => load.language)).toEqual(['de']);
  });

  it('answers no when the budget stops the tries', () => {
    const spent = new AnalysisWork(8, 8);
    expect(realWords.isWord('montagnes', ['fr'], spent)).toBe(false);
    expect(spent.refusals).toBe(1);
  });
});

describe('accentsOf and spellingsOf', () => {
  it("finds each language's accented letters in its dictionary, the rare ones left out", () => {
    const french = accentsOf(dictionaryFiles('fr').dic.toString('utf8'));
    expect(french.get('e')).toEqual(expect.arrayContaining(['é', 'è', 'ê']));
    expect(french.get('c')).toEqual(['ç']);
    expect(french.get('o')).toContain('œ'); // `oe` folds to `o` as German's does
    expect(french.get('n')).toBeUndefined();
    const german = accentsOf(dictionaryFiles('de').dic.toString('utf8'));
    expect(german.get('u')).toEqual(['ü']);
    expect(german.get('ss')).toEqual(['ß']);
    const italian = accentsOf(dictionaryFiles('it').dic.toString('utf8'));
    expect(italian.get('u')).toEqual(['ù']);
    expect(accentsOf(dictionaryFiles('en').dic.toString('utf8')).size).toBe(0);
  });

  it('tries the word, then one accent put back, then two, at most MAX_SPELLINGS', () => {
    const accents = new Map([['e', ['é', 'è']]]);
    expect(spellingsOf('ete', accents)).toEqual([
      'ete',
      'éte',
      'ète',
      'eté',
      'etè',
      'été',
      'étè',
      'èté',
      'ètè',
    ]);
    expect(spellingsOf('sky', accents)).toEqual(['sky']);
    expect(spellingsOf('fusse', new Map([['ss', ['ß']]]))).toEqual(['fusse', 'fuße']);
    const many = new Map([['e', ['é', 'è', 'ê', 'ë']]]);
    expect(spellingsOf('eeeeeeeeee', many)).toHaveLength(MAX_SPELLINGS);
  });
});

describe('isOtherEnding', () => {
  it.each([
    ['schneeschuhwanderung', 'schneeschuhwandern', true],
    ['bergwandern', 'bergwanderung', true],
    ['march', 'marche', false],
    ['parks', 'paris', false],
    ['wanderungen', 'wanderweg', false],
  ])('%s → %s: %s', (word, correction, expected) => {
    expect(isOtherEnding(word, correction)).toBe(expected);
  });
});
