import { LANGUAGES } from '../analysis/languages';
import { loadGazetteer } from '../gazetteer/gazetteer';
import { loadConceptHierarchy, loadConceptLinks, loadTravelGlossary } from './glossary';
import type { ConceptHierarchy } from './glossary';
import { glossaryRules, QueryExpander } from './query-expander';
import { QueryExpansionService } from './query-expansion.service';
import { QueryExpansionSettings } from './query-expansion.settings';
import { isPhraseWithStopWord, loadStopWords } from './stop-words';
import { foldWords } from '../analysis/tokenizer';
import { readQueryText } from '../analysis/analysed-query';

/**
 * Expansions that say nothing else than the search: over the whole glossary and gazetteer, no
 * expansion is a phrase holding a little word ("tour in", "de genev"), no word belongs to two
 * unrelated concepts, and a multi-word concept read in a search says nothing but itself and its
 * words' own meanings.
 */

/**
 * Words that two concepts not included in one another hold on purpose, each reviewed (GLOSSARY.md,
 * "expansions that say one thing"): `word` (folded), the concepts' ids, sorted, and why.
 */
const SHARED_WORDS: { word: string; concepts: string[]; reason: string }[] = [
  {
    word: 'settimana bianca',
    concepts: ['skiing', 'winter_holiday'],
    reason: 'Italian says it of a ski week and of any winter week in the snow alike',
  },
  { word: 'velo', concepts: ['bicycle', 'cycling'], reason: 'vélo is the bicycle and the riding' },
  {
    word: 'camping',
    concepts: ['camping', 'campsite'],
    reason: 'French, German and English name the site and the stay alike',
  },
  { word: 'campeggio', concepts: ['camping', 'campsite'], reason: 'as camping, in Italian' },
  {
    word: 'island',
    concepts: ['iceland', 'island'],
    reason: 'German Island is Iceland: the gazetteer marks it a common word in English (Island:en)',
  },
  {
    word: 'mexico',
    concepts: ['mexico', 'mexico_city'],
    reason: 'the city in French, the country in English (gazetteer/shared-names.tsv)',
  },
  {
    word: 'rundreise',
    concepts: ['road_trip', 'tour'],
    reason:
      'German Rundreise is the tour (circuit) and, by car, the road trip; without it "tour" reached no German tour (default judged set)',
  },
];

const related = (hierarchy: ConceptHierarchy, a: string, b: string): boolean => {
  const includes = (broader: string, narrower: string, seen: Set<string>): boolean =>
    (hierarchy.get(broader) ?? []).some(
      (inside) =>
        inside === narrower || (!seen.has(inside) && (seen.add(inside), includes(inside, narrower, seen))),
    );
  return includes(a, b, new Set()) || includes(b, a, new Set());
};

describe('the glossary and the gazetteer say one thing each', () => {
  const concepts = loadTravelGlossary();
  const hierarchy = loadConceptHierarchy(concepts);
  const stopWords = loadStopWords();
  const rules = glossaryRules(concepts, hierarchy, stopWords);
  const linkedRules = glossaryRules(concepts, hierarchy, stopWords, loadConceptLinks(concepts, hierarchy));
  const expander = new QueryExpander(rules, undefined, stopWords);
  const conceptsOf = new Map<string, string[]>();
  for (const concept of concepts) {
    for (const word of new Set(LANGUAGES.flatMap((language) => concept.words[language]))) {
      conceptsOf.set(word, [...(conceptsOf.get(word) ?? []), concept.id]);
    }
  }

  it('reads the stop words: the function words and PostgreSQL’s, folded', () => {
    for (const word of ['de', 'in', 'di', 'the', 'und', 'au', 'sur', 'am', 'e'])
      expect(stopWords).toContain(word);
    expect(isPhraseWithStopWord('tour in auto', stopWords)).toBe(true);
    expect(isPhraseWithStopWord('canton de geneve', stopWords)).toBe(true);
    expect(isPhraseWithStopWord('city break', stopWords)).toBe(false);
    // a word alone is no phrase
    expect(isPhraseWithStopWord('in', stopWords)).toBe(false);
  });

  it('never expands a glossary word to a phrase holding a stop word, nor to a stop word', () => {
    const bad: string[] = [];
    for (const rule of linkedRules) {
      for (const word of [...rule.to, ...(rule.narrower ?? []).flat(), ...(rule.related ?? []).flat()]) {
        if (isPhraseWithStopWord(word, stopWords) || stopWords.has(word)) bad.push(word);
      }
    }
    expect(bad).toEqual([]);
    // the phrases still find their concept
    const terms = expander.expand(foldWords('tour in auto').slice(0, 10)).terms.map((term) => term.term);
    expect(terms).toEqual(expect.arrayContaining(['roadtrip', 'road trip']));
    expect(terms).not.toContain('tour in auto');
  });

  it('gives no word to two concepts not included in one another, but the reviewed ones', () => {
    const shared: string[] = [];
    for (const [word, ids] of conceptsOf) {
      const unrelated = ids.filter((a) => ids.some((b) => b !== a && !related(hierarchy, a, b)));
      if (unrelated.length) shared.push(`${word}: ${[...unrelated].sort().join(', ')}`);
    }
    expect(shared.sort()).toEqual(
      SHARED_WORDS.map(({ word, concepts: ids }) => `${word}: ${ids.join(', ')}`).sort(),
    );
    for (const { reason } of SHARED_WORDS) expect(reason.length).toBeGreaterThan(10);
  });

  it('reads every multi-word concept as itself: its words gain the concept and their own meanings only', () => {
    const wrong: string[] = [];
    // a word's own meanings, read alone: none for a misspelling, nor the narrower concepts' words
    const ownTerms = (part: string): Set<string> => {
      const alone = expander.expand(foldWords(part).slice(0, 1));
      if (!alone.knownWords.includes(part)) return new Set();
      return new Set(alone.terms.filter((term) => term.kind !== 'narrower').map((term) => term.term));
    };
    for (const concept of concepts) {
      for (const word of new Set(LANGUAGES.flatMap((language) => concept.words[language]))) {
        const words = word.split(' ');
        if (words.filter((part) => !stopWords.has(part)).length < 2) continue;
        const expansion = expander.expand(foldWords(word).slice(0, 10));
        // a word of the concept, or of a concept sharing the phrase, or included in one of them
        const meant = conceptsOf.get(word) ?? [];
        const foreign = expansion.terms.filter(
          (term) =>
            !(conceptsOf.get(term.term) ?? []).some((id) =>
              meant.some((own) => id === own || related(hierarchy, own, id)),
            ) && !ownTerms(term.token).has(term.term),
        );
        if (foreign.length)
          wrong.push(`${word} (${concept.id}): ${foreign.map((term) => term.term).join(', ')}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('never expands a place to a name holding a stop word', () => {
    const service = new QueryExpansionService(
      Object.assign(new QueryExpansionSettings(), { synonymsSourceTimeoutMs: 1000 }),
    );
    const bad: string[] = [];
    for (const place of loadGazetteer().places) {
      for (const name of new Set(LANGUAGES.map((language) => place.names[language][0]))) {
        for (const term of service.expand(readQueryText(name)).terms) {
          if (isPhraseWithStopWord(term.term, stopWords)) bad.push(`${name}: ${term.term} (${term.kind})`);
        }
      }
    }
    expect(bad).toEqual([]);
    const geneva = service.expand(readQueryText('Genève')).terms.map((term) => term.term);
    expect(geneva).toEqual(expect.arrayContaining(['genf', 'geneva', 'ginevra']));
    expect(geneva).not.toContain('canton de geneve');
  });
});

/** The glossary's expander as the service builds it (its concepts, hierarchy and stop words). */
function glossaryExpander(): QueryExpander {
  const concepts = loadTravelGlossary();
  const stopWords = loadStopWords();
  return new QueryExpander(
    glossaryRules(concepts, loadConceptHierarchy(concepts), stopWords),
    undefined,
    stopWords,
  );
}

describe('multi-word concepts read before their words', () => {
  const expander = glossaryExpander();
  const termsOf = (search: string) =>
    expander.expand(foldWords(search).slice(0, 10)).terms.map((term) => term.term);

  it('takes "sports nautiques" as water sports, not "sports" as a misspelt "ports" (harbours)', () => {
    const expansion = expander.expand(foldWords('sports nautiques').slice(0, 10));
    const terms = expansion.terms.map((term) => term.term);
    expect(terms).toEqual(expect.arrayContaining(['wassersport', 'water sports']));
    expect(terms).not.toEqual(expect.arrayContaining(['hafen']));
    expect(terms.filter((term) => ['port', 'ports', 'porto', 'harbour', 'hafen'].includes(term))).toEqual([]);
    // counted for each of the phrase's words (folded as a search is: "ue" after "q" kept, D-54)
    expect(new Set(expansion.terms.map((term) => term.token))).toEqual(new Set(['sports', 'nautiques']));
    expect(expansion.knownWords).toEqual(expect.arrayContaining(['sports', 'nautiques']));
  });

  it('takes "marché de Noël" as Christmas, and "marché" as a market, not as walking', () => {
    const terms = termsOf('marché de Noël à Strasbourg');
    expect(terms).toEqual(expect.arrayContaining(['weihnachtsmarkt', 'christmas market']));
    expect(terms).not.toContain('wandern');
    // the word keeps its own meaning: an offer of Strasbourg's market still covers "marché"
    expect(terms).toContain('markt');
  });

  it('takes "road trip" as a road trip, its words keeping their own meanings; "ski de fond" as cross-country skiing', () => {
    const road = expander.expand(foldWords('road trip en Irlande').slice(0, 10));
    const tokensOf = (term: string) =>
      new Set(road.terms.filter((each) => each.term === term).map((each) => each.token));
    // the concept counts for both words; "road" is also a road, "trip" a trip
    expect(tokensOf('roadtrip')).toEqual(new Set(['road', 'trip']));
    expect(tokensOf('strasse')).toEqual(new Set(['road']));
    expect(tokensOf('reise')).toEqual(new Set(['trip']));
    const fond = expander.expand(foldWords('ski de fond').slice(0, 10));
    expect(fond.terms.map((term) => term.term)).toEqual(expect.arrayContaining(['langlauf']));
    expect(new Set(fond.terms.map((term) => term.token))).toEqual(new Set(['ski', 'fond']));
    // "ski" keeps skiing, but not the narrower concepts of its own meanings
    const ski = fond.terms.filter((term) => term.token === 'ski');
    expect(ski.some((term) => term.kind === 'narrower')).toBe(false);
  });

  it('keeps a word of a multi-word concept its own meanings, never a misspelling nor their narrower concepts', () => {
    // "wine" of "wine tasting" is wine: an offer holding "Wein" alone covers the word
    const wine = expander.expand(foldWords('wine tasting').slice(0, 10));
    expect(wine.terms.filter((term) => term.term === 'wein').map((term) => term.token)).toEqual(['wine']);
    expect(
      wine.terms
        .filter((term) => term.term === 'weinprobe')
        .map((term) => term.token)
        .sort(),
    ).toEqual(['tasting', 'wine']);
    // "randonnée" of "randonnée en montagne" is hiking, not also the long-distance trails it includes
    const mountain = termsOf('randonnée en montagne');
    expect(mountain).toEqual(expect.arrayContaining(['bergwanderung', 'wandern']));
    expect(mountain).not.toContain('fernwanderung');
    // "sports" of "sports nautiques" is not the misspelt "ports"
    expect(termsOf('sports nautiques')).not.toContain('hafen');
  });

  it('keeps a word with its little word ("am See", "à vélo") a word of its own too', () => {
    const lake = termsOf('Ferien am See');
    expect(lake).toEqual(expect.arrayContaining(['lac', 'lakeside']));
    const bike = expander.expand(foldWords('voyage à vélo').slice(0, 10));
    expect(bike.terms.map((term) => term.term)).toEqual(expect.arrayContaining(['cycling', 'bicycle']));
    expect(bike.terms.some((term) => term.token === 'a')).toBe(false);
  });

  it('knows the words of the judged searches that had none (voile, catamaran, kitesurf, paddle, levadas, snorkel)', () => {
    expect(termsOf('voile en Croatie')).toEqual(expect.arrayContaining(['segeln', 'sailing']));
    expect(termsOf('catamaran croatie')).toEqual(expect.arrayContaining(['katamaran', 'voilier']));
    expect(termsOf('kitesurf')).toEqual(expect.arrayContaining(['kitesurfen', 'kitesurfing']));
    expect(termsOf('paddle sur le lac')).toEqual(expect.arrayContaining(['paddleboarding']));
    expect(termsOf('levadas madere')).toEqual(expect.arrayContaining(['levada']));
    expect(termsOf('snorkel greece')).toEqual(expect.arrayContaining(['schnorcheln']));
    // windsurfing, read as one, counts for both words; "voile" keeps its own meaning (sailing)
    const board = expander.expand(foldWords('planche à voile').slice(0, 10));
    expect(
      new Set(board.terms.filter((term) => term.term === 'windsurfen').map((term) => term.token)),
    ).toEqual(new Set(['planche', 'voile']));
    expect(board.terms.filter((term) => term.term === 'segeln').map((term) => term.token)).toEqual(['voile']);
  });
});

describe('a word of a multi-word concept general by its own meanings', () => {
  const expander = glossaryExpander();

  it('makes "tour" of "food tour" and "vacances" of "vacances à la plage" general, not the word that says the concept', () => {
    expect(expander.expand(foldWords('food tour').slice(0, 10)).genericWords).toEqual(['tour']);
    expect(expander.expand(foldWords('vacances à la plage').slice(0, 10)).genericWords).toEqual(['vacances']);
    // alone, as before
    expect(expander.expand(foldWords('tour').slice(0, 10)).genericWords).toEqual(['tour']);
    expect(expander.expand(foldWords('plage').slice(0, 10)).genericWords).toEqual([]);
  });
});

describe('a place name that is a common word of every language', () => {
  const service = new QueryExpansionService(
    Object.assign(new QueryExpansionSettings(), { synonymsSourceTimeoutMs: 1000 }),
  );

  it('is the word in a search whose language is not guessed, when the glossary knows it ("spa weekend")', () => {
    for (const search of ['spa', 'spa weekend', 'spa retreat']) {
      const expansion = service.expand(readQueryText(search));
      expect([search, expansion.language?.language, expansion.placeWords ?? []]).toEqual([
        search,
        undefined,
        [],
      ]);
      expect(expansion.terms.map((term) => term.term)).toEqual(expect.arrayContaining(['wellnessbereich']));
    }
  });

  it('is the place after a preposition of place, and a name the glossary does not know stays the place', () => {
    expect(service.expand(readQueryText('weekend in Spa')).placeWords).toEqual(['spa']);
    // the cheese is the place's: Greyerz finds its offers
    const gruyere = service.expand(readQueryText('gruyere'));
    expect(gruyere.placeWords).toEqual(['gruyere']);
    expect(gruyere.terms.map((term) => term.term)).toContain('greyerz');
  });
});
