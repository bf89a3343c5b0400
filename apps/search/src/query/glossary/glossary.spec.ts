import { editDistance } from '../analysis/string-metrics';
import { foldText, foldWords } from '../analysis/tokenizer';
import { LANGUAGES } from '../analysis/languages';
import {
  GlossaryError,
  loadConceptHierarchy,
  loadConceptLinks,
  loadTravelGlossary,
  parseConceptHierarchy,
  parseConceptLinks,
  parseGlossary,
} from './glossary';
import { glossaryRules, QueryExpander } from './query-expander';
import { loadStopWords } from './stop-words';

const HEADER = 'id\tdomain\tfr\tde\ten\tit';

describe('the travel glossary', () => {
  const concepts = loadTravelGlossary();

  it('holds a few hundred concepts, each with words in the four languages, ids unique', () => {
    expect(concepts.length).toBeGreaterThanOrEqual(300);
    expect(new Set(concepts.map((c) => c.id)).size).toBe(concepts.length);
    for (const concept of concepts) {
      for (const language of LANGUAGES) expect(concept.words[language].length).toBeGreaterThan(0);
    }
  });

  it('keeps its words folded and split as the text side folds and splits a search', () => {
    for (const concept of concepts) {
      for (const language of LANGUAGES) {
        for (const word of concept.words[language]) {
          // folded once: a word folded again differs only where an accented `ue` was kept (`suède` → `suede`)
          const again = foldWords(word).join(' ');
          if (again !== word)
            expect([word, again.replace(/u(?!e)/g, 'ue') === word || /ue/.test(word)]).toEqual([word, true]);
        }
      }
    }
    const hiking = concepts.find((c) => c.id === 'hiking');
    expect(hiking?.words.fr).toContain('randonnee');
    expect(concepts.find((c) => c.id === 'lakeside')?.words.de).toEqual(
      expect.arrayContaining(['seeufer', 'am see']),
    );
  });
});

describe('foldText (travel_fold of the text side)', () => {
  it('lower-cases, drops accents and folds the German transliterations', () => {
    expect(new Set(['Zürich', 'Zuerich', 'Zurich'].map(foldText))).toEqual(new Set(['zurich']));
    expect(foldText('Straße')).toBe('strasse');
    // `oe` before `u` is French (`œuvre`, `coeur`), `ue` after `q` or with an accent is not German (D-54)
    expect(foldText('Œuvre Tromsø Kraków')).toBe('oeuvre tromso krakow');
    expect(['Québec', 'Quebec', 'Suède', 'cœur', 'coeur', 'jouer'].map(foldText)).toEqual([
      'quebec',
      'quebec',
      'suede',
      'coeur',
      'coeur',
      'jouer',
    ]);
    expect(foldText('Œnotourisme')).toBe(foldText('oenotourisme'));
    expect(foldWords("Week-end d'été, B&B")).toEqual(['week', 'end', 'd', 'ete', 'b', 'b']);
  });
});

describe('parseGlossary refuses a malformed glossary, naming the line', () => {
  const parse = (lines: string[]) => () => parseGlossary(lines.join('\n'), 'test.tsv');

  it('a repeated concept id', () => {
    const line = 'lake\tlandscape\tlac\tSee\tlake\tlago';
    expect(parse(['# comment', HEADER, line, line])).toThrow(
      new GlossaryError('test.tsv', 4, 'concept "lake" is already defined on line 3'),
    );
  });

  it('a language without any word', () => {
    expect(parse([HEADER, 'lake\tlandscape\tlac\tSee\t lake \t ; '])).toThrow(
      'test.tsv, line 2: concept "lake" has no it word',
    );
  });

  it('a wrong header, column count, id or domain', () => {
    expect(parse(['id\tfr\tde'])).toThrow('test.tsv, line 1: the header must be');
    expect(parse([HEADER, 'lake\tlandscape\tlac\tSee\tlake'])).toThrow(
      'test.tsv, line 2: 5 columns, 6 expected',
    );
    expect(parse([HEADER, 'Lake!\tlandscape\tlac\tSee\tlake\tlago'])).toThrow('malformed concept id "Lake!"');
    expect(parse([HEADER, 'lake\tscenery\tlac\tSee\tlake\tlago'])).toThrow(
      'line 2: unknown domain "scenery"',
    );
    expect(parse(['# only a comment'])).toThrow('no header line');
  });
});

describe('QueryExpander over the glossary', () => {
  const expander = new QueryExpander(glossaryRules(loadTravelGlossary()), undefined, loadStopWords());
  const termsOf = (search: string, token: string) =>
    expander
      .expand(foldWords(search).slice(0, 16))
      .terms.filter((e) => e.token === token)
      .map((e) => e.term);

  it('expands a word to its concept in the other languages, never to itself', () => {
    const hiking = termsOf('Wanderung am See', 'wanderung');
    expect(hiking).toEqual(expect.arrayContaining(['randonnee', 'hiking', 'escursione']));
    expect(hiking).not.toContain('wanderung');
    expect(termsOf('Wanderung am See', 'see')).toEqual(
      expect.arrayContaining(['lac', 'lake', 'lago', 'bord du lac']),
    );
    expect(
      expander.expand(foldWords('Wanderung am See').slice(0, 16)).terms.every((e) => e.kind === 'glossary'),
    ).toBe(true);
  });

  it('finds folded, inflected, misspelt and compound words, and phrases', () => {
    expect(termsOf('Hôtel', 'hotel')).toEqual(expect.arrayContaining(['hebergement', 'unterkunft']));
    expect(termsOf('Wanderungen', 'wanderungen')).toContain('randonnee');
    expect(termsOf('randonées', 'randonees')).toContain('wandern');
    expect(termsOf('Seeufer', 'seeufer')).toEqual(expect.arrayContaining(['bord du lac', 'lakeside']));
    expect(termsOf('Bergwanderung', 'bergwanderung')).toEqual(
      expect.arrayContaining(['mountain hike', 'montagne', 'mountain', 'randonnee', 'hiking']),
    );
    expect(termsOf('Seewanderung', 'seewanderung')).toEqual(expect.arrayContaining(['lac', 'randonnee']));
    expect(termsOf('Museumsbesuche', 'museumsbesuche')).toEqual(expect.arrayContaining(['musee', 'museo']));
    expect(termsOf('settimana bianca Zermatt', 'settimana')).toEqual(
      expect.arrayContaining(['ski', 'skiing']),
    );
  });

  it('knows the words it finds but misspelt ones, and gives a compound its own parts', () => {
    expect(expander.expand(foldWords('Bergwanderung randonée Zermatt').slice(0, 16)).knownWords).toEqual([
      'bergwanderung',
    ]);
    const parts = expander
      .expand(foldWords('Fahrradurlaub').slice(0, 16))
      .terms.filter((e) => e.kind === 'compound')
      .map((e) => e.term);
    // "urlaub" is of a general concept: it splits the word, and expands to nothing
    expect(parts).toEqual(['fahrrad']);
    expect(termsOf('Fahrradurlaub', 'fahrradurlaub')).toEqual(expect.arrayContaining(['velo', 'bike']));
    expect(termsOf('Fahrradurlaub', 'fahrradurlaub')).not.toContain('vacances');
  });

  it('leaves unknown words and short ones alone, and reads only the words the text side reads', () => {
    expect(expander.expand(foldWords('Zermatt Xq').slice(0, 16))).toEqual({
      knownWords: [],
      terms: [],
      genericWords: [],
    });
    expect(expander.expand(foldWords('Zermatt bike').slice(0, 1))).toEqual({
      knownWords: [],
      terms: [],
      genericWords: [],
    });
  });
});

describe('editDistance', () => {
  it('counts edits, and stops past the bound', () => {
    expect(editDistance('randonee', 'randonnee', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
    expect(editDistance('abcdef', 'uvwxyz', 1)).toBe(2);
  });
});

describe('the concept hierarchy (concept-hierarchy.tsv)', () => {
  const concepts = loadTravelGlossary();

  it('reads the committed hierarchy against the glossary', () => {
    const hierarchy = loadConceptHierarchy(concepts);
    expect(hierarchy.get('winter_sports')).toEqual(
      expect.arrayContaining(['skiing', 'snowboard', 'snowshoe', 'sledging']),
    );
    expect(hierarchy.get('water_sports')).toEqual(expect.arrayContaining(['sailing', 'surfing', 'kayak']));
  });

  it('refuses an unknown concept, a broader concept given twice and a loop, naming the line', () => {
    const parse = (lines: string[]) =>
      parseConceptHierarchy(['broader\tnarrower', ...lines].join('\n'), concepts, 'test.tsv');
    expect(() => parse(['winter_sports\tskiing; curling'])).toThrow(
      'test.tsv, line 2: unknown concept "curling"',
    );
    expect(() => parse(['hiking\tmountain_hike', 'hiking\ttrail'])).toThrow(
      'line 3: "hiking" is given twice',
    );
    expect(() => parse(['hiking\tmountain_hike', 'mountain_hike\thiking'])).toThrow(
      'line 3: "mountain_hike" would include itself through "hiking"',
    );
  });

  it('lets a broader word find the narrower concepts words, never the reverse', () => {
    const expander = new QueryExpander(glossaryRules(concepts, loadConceptHierarchy(concepts)));
    const narrower = (search: string) =>
      expander
        .expand(foldWords(search).slice(0, 16))
        .terms.filter((term) => term.kind === 'narrower')
        .map((term) => term.term);
    expect(narrower('Wintersport')).toEqual(
      expect.arrayContaining(['ski', 'langlauf', 'ski de fond', 'luge']),
    );
    expect(narrower('sports nautiques')).toEqual(expect.arrayContaining(['voile', 'surf', 'kayak']));
    expect(narrower('ski')).toEqual([]);
  });
});

describe('the near concepts and items (concept-links.tsv)', () => {
  const concepts = loadTravelGlossary();
  const hierarchy = loadConceptHierarchy(concepts);
  const links = loadConceptLinks(concepts, hierarchy);
  const expander = new QueryExpander(glossaryRules(concepts, hierarchy, loadStopWords(), links));
  const related = (search: string) =>
    expander
      .expand(foldWords(search).slice(0, 16))
      .terms.filter((term) => term.kind === 'related')
      .map((term) => term.term);

  it('links near concepts both ways, an item to its theme one way, and leaves to the hierarchy what it covers', () => {
    expect(links.get('beach_holiday')).toContain('beach');
    expect(links.get('beach')).toContain('beach_holiday');
    expect(links.get('castle')).toEqual(['culture']);
    expect(links.get('culture') ?? []).not.toContain('castle');
    // hiking includes mountain_hike (concept-hierarchy.tsv): the near link adds only the other way
    expect(links.get('mountain_hike')).toContain('hiking');
    expect(links.get('hiking') ?? []).not.toContain('mountain_hike');
  });

  it('lets a seaside word reach the beach, a mountain tour hiking, an item its theme, as related words', () => {
    expect(related('séjour balnéaire')).toEqual(expect.arrayContaining(['plage', 'strand', 'spiaggia']));
    expect(related('Bergtour')).toEqual(expect.arrayContaining(['wandern', 'randonnee', 'hiking']));
    expect(related('voile')).toEqual(expect.arrayContaining(['croisiere', 'kreuzfahrt']));
    expect(related('château')).toEqual(expect.arrayContaining(['culture', 'kultur']));
    expect(related('Wein')).toEqual(expect.arrayContaining(['gastronomie', 'kulinarik']));
    // not transitively: a castle reaches culture, not the museums of culture
    expect(related('château')).not.toContain('musee');
    // a theme does not reach its items through a link
    expect(related('culture')).toEqual([]);
  });

  it('refuses an unknown concept or kind, a self link and a pair linked twice, naming the line', () => {
    const parse = (lines: string[]) =>
      parseConceptLinks(['from\tto\tkind', ...lines].join('\n'), concepts, hierarchy, 'test.tsv');
    expect(() => parse(['castle\tcurling\titem'])).toThrow('test.tsv, line 2: unknown concept "curling"');
    expect(() => parse(['castle\tculture\ttheme'])).toThrow('line 2: unknown kind "theme"');
    expect(() => parse(['castle\tcastle\tnear'])).toThrow('line 2: "castle" is linked to itself');
    expect(() => parse(['beach\tseaside\tnear', 'seaside\tbeach\titem'])).toThrow(
      'line 3: "seaside" and "beach" are linked on line 2 already',
    );
  });
});
