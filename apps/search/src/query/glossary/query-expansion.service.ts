import { Injectable, Logger, Optional } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { SearchMetrics } from '../../metrics/search-metrics';
import { AnalysisWork } from '../analysis/analysis-budget';
import { loadGazetteer } from '../gazetteer/gazetteer';
import { loadPlacePrepositions, PlaceFinder } from '../gazetteer/place-finder';
import type { PlaceMention } from '../gazetteer/place-finder';
import { resolvePlaces } from '../gazetteer/place-resolution';
import type { Gazetteer } from '../gazetteer/gazetteer';
import { SearchGazetteer } from '../gazetteer/search-gazetteer';
import { LANGUAGES } from '../analysis/languages';
import type { Language } from '../analysis/languages';
import type { QueryText } from '../analysis/analysed-query';
import { loadConceptHierarchy, loadConceptLinks, loadTravelGlossary } from './glossary';
import { LanguageGuesser, loadFunctionWords, withPlaceLanguage } from './language-guess';
import { glossaryRules, NO_EXPANSION, QueryExpander } from './query-expander';
import { QueryExpansionSettings } from './query-expansion.settings';
import type { ExpandedTerm, ExpansionRule, QueryExpansion } from './query-expander';
import { readSynonymsSource } from './synonyms';
import { RealWords } from '../dictionary/real-words';
import { isOtherEnding } from '../dictionary/other-ending';
import { isPhraseWithStopWord, loadStopWords } from './stop-words';
import { loadFillerWords } from './filler-words';
import { foldText } from '../analysis/tokenizer';

/** The pause between two dictionaries of the preload, in ms: searches waiting run in between. */
const PRELOAD_TURN_MS = 50;

/** A text's hyphenated words, folded (`week-end`, `saas-fee`, `bien-etre`), as foldWords splits them apart. */
export function hyphenatedWords(text: string): string[] {
  return [
    ...new Set(
      foldText(text)
        .split(/[^\p{L}\p{N}-]+/u)
        .map((word) => word.replace(/^-+|-+$/g, ''))
        .filter((word) => word.includes('-')),
    ),
  ];
}

/**
 * The words a search gains (apps/search/README.md, "Query expansion" and "Places"): the travel
 * glossary, read and validated once at start, merged with the operator synonyms
 * (SEARCH_SYNONYMS_SOURCE, read at start and again at each reindex), and the gazetteer's names of
 * the places the search names, looked up in memory per search, never in the database; with the
 * search's language, guessed from its words. A service whose glossary, gazetteer or synonyms cannot
 * be read does not start; a reindex that cannot read the synonyms keeps the previous ones.
 */
@Injectable()
export class QueryExpansionService implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('QueryExpansion');
  private readonly glossary: ExpansionRule[];
  private readonly languages: LanguageGuesser;
  private readonly places: PlaceFinder;
  private readonly gazetteer: Gazetteer;
  /** The little words an expanded phrase may not hold (stop-words.ts). */
  private readonly stopWords: Set<string>;
  /** The filler words of the four languages (filler-words.ts). */
  private readonly fillerWords: Set<string>;
  private synonyms: ExpansionRule[] = [];
  /**
   * The languages' Hunspell dictionaries (query/dictionary/real-words.ts): Hunspell compiled at
   * start (onModuleInit), each dictionary read at the first search that needs it; none before.
   */
  private realWords?: RealWords;
  /** The next turn of the dictionaries' preload (preloadDictionaries), while one is due. */
  private preloadTimer?: NodeJS.Timeout;
  /** Glossary and synonyms; synonyms alone (SEARCH_GLOSSARY_WEIGHT 0). */
  private expanders: { all: QueryExpander; synonyms: QueryExpander };

  constructor(
    private readonly settings: QueryExpansionSettings,
    @Optional() private readonly metrics?: SearchMetrics,
    @Optional() searchGazetteer?: SearchGazetteer,
  ) {
    const concepts = loadTravelGlossary();
    this.stopWords = loadStopWords();
    this.fillerWords = new Set(Object.values(loadFillerWords()).flat());
    const hierarchy = loadConceptHierarchy(concepts);
    this.glossary = glossaryRules(concepts, hierarchy, this.stopWords, loadConceptLinks(concepts, hierarchy));
    this.languages = new LanguageGuesser(concepts, loadFunctionWords());
    this.gazetteer = searchGazetteer?.gazetteer() ?? loadGazetteer();
    this.places = new PlaceFinder(this.gazetteer, loadPlacePrepositions());
    this.expanders = this.build();
  }

  async onModuleInit(): Promise<void> {
    await this.loadRealWords();
    await this.reloadSynonyms();
  }

  /**
   * The dictionaries read in the background, SEARCH_DICTIONARY_PRELOAD_MS after start, one language
   * a turn of the event loop (preloadDictionaries): never on readiness's path nor a search's.
   */
  onApplicationBootstrap(): void {
    const delay = this.settings.SEARCH_DICTIONARY_PRELOAD_MS;
    if (delay > 0) this.schedulePreload(delay);
  }

  onApplicationShutdown(): void {
    if (this.preloadTimer) clearTimeout(this.preloadTimer);
    this.preloadTimer = undefined;
  }

  private schedulePreload(delay: number): void {
    this.preloadTimer = setTimeout(() => {
      this.preloadTimer = undefined;
      if (this.preloadDictionaries(1) > 0) this.schedulePreload(PRELOAD_TURN_MS);
    }, delay);
    // the preload never holds the process open (a test's, a replica stopping)
    this.preloadTimer.unref();
  }

  /**
   * Reads at most `count` dictionaries not read yet (in LANGUAGES' order), logging each; returns
   * how many are still unread. A search that needs one meanwhile reads it itself (RealWords.isWord).
   */
  preloadDictionaries(count: number = LANGUAGES.length): number {
    const realWords = this.realWords;
    if (!realWords) return 0;
    let read = 0;
    for (const language of LANGUAGES) {
      if (read >= count) break;
      const loaded = realWords.loads.length;
      if (!realWords.preload(language)) continue;
      read++;
      for (const load of realWords.loads.slice(loaded)) {
        this.logger.log(`${load.language} dictionary preloaded in ${Math.round(load.milliseconds)} ms`);
      }
    }
    return LANGUAGES.length - realWords.loadedLanguages.length;
  }

  /** The languages whose dictionary is read (by a search or the preload). */
  get dictionaryLanguages(): Language[] {
    return this.realWords?.loadedLanguages ?? [];
  }

  /** Compiles Hunspell for the real-word checks (11 ms measured, D-82; no dictionary read yet). */
  async loadRealWords(): Promise<void> {
    this.realWords ??= await RealWords.load();
  }

  /**
   * Whether a search's folded word is a real word of a language it may be in: its guessed
   * `language`, else any of the four (query/dictionary/real-words.ts), counted on `work`. A real
   * word is never corrected into another word or a place. False before loadRealWords.
   */
  isRealWord(word: string, language: Language | undefined, work: AnalysisWork): boolean {
    const realWords = this.realWords;
    if (!realWords) return false;
    const loaded = realWords.loads.length;
    const found = realWords.isWord(word, language ? [language] : LANGUAGES, work);
    for (const load of realWords.loads.slice(loaded)) {
      this.logger.log(`${load.language} dictionary read in ${Math.round(load.milliseconds)} ms`);
    }
    return found;
  }

  /**
   * The words of a sentence (`shortSearch` false: more than SHORT_TYPO_MAX_WORDS words,
   * analysis/typos.ts) that no rule explains (the glossary, the synonyms, the gazetteer, the
   * function and filler words) and that a language's dictionary knows as a common word
   * (RealWords.isCommonWord, in the guessed language, else any of the four): a minor concept of
   * the sentence (query-terms.ts; D-54 as amended), as what the traveller looks for is said by the
   * words the rules know. A word no dictionary knows as a common word (a name the gazetteer lacks:
   * "Masai Mara") stays a major concept. A hyphenated word of the text is looked up whole first:
   * a rule that knows it whole ("week-end", "Saas-Fee") explains its pieces, a dictionary that
   * knows it whole ("bien-être") makes its unexplained pieces minor, else each piece is asked
   * alone. Counted on `expansion.work`. None before loadRealWords, or in a short search.
   */
  plainWordsOf(
    text: string,
    words: readonly string[],
    expansion: QueryExpansion,
    shortSearch: boolean,
  ): string[] {
    if (shortSearch || !this.realWords) return [];
    const explained = new Set([
      ...expansion.knownWords,
      ...expansion.terms.map((term) => term.token),
      ...(expansion.placeWords ?? []),
      ...(expansion.placeNameWords ?? []),
      ...(expansion.functionWords ?? []),
      ...(expansion.fillerWords ?? []),
    ]);
    const language = expansion.language?.language;
    const languages = language ? [language] : LANGUAGES;
    const work = expansion.work ?? new AnalysisWork();
    const realWords = this.realWords;
    const plain = new Set<string>();
    const asked = new Set<string>();
    const inSearch = new Set(words);
    for (const hyphenated of hyphenatedWords(text)) {
      const pieces = hyphenated.split('-').filter((piece) => inSearch.has(piece));
      const unexplained = pieces.filter((piece) => !explained.has(piece));
      if (!unexplained.length) continue;
      for (const piece of pieces) asked.add(piece);
      if (realWords.isCommonWord(hyphenated, languages, work)) {
        for (const piece of unexplained) plain.add(piece);
      } else {
        for (const piece of unexplained) if (realWords.isCommonWord(piece, languages, work)) plain.add(piece);
      }
    }
    for (const word of new Set(words)) {
      if (explained.has(word) || asked.has(word)) continue;
      if (realWords.isCommonWord(word, languages, work)) plain.add(word);
    }
    return [...plain];
  }

  /**
   * The pieces of the search's hyphenated words that a rule knows whole as a multi-word form
   * ("week-end": the glossary's "week end"), but their longest (the first of equals): they are
   * one word of the traveller's, so the other pieces ("end") cover no concept and select no offer
   * of their own (query-terms.ts), and the phrase's expansions count for the piece kept. A place's
   * hyphenated name ("Saas-Fee") is the gazetteer's (placeNameWords).
   */
  hyphenPiecesOf(text: string, words: readonly string[], expansion: QueryExpansion): string[] {
    const expander = this.settings.SEARCH_GLOSSARY_WEIGHT > 0 ? this.expanders.all : this.expanders.synonyms;
    const places = new Set([...(expansion.placeWords ?? []), ...(expansion.placeNameWords ?? [])]);
    const inSearch = new Set(words);
    const pieces = new Set<string>();
    for (const hyphenated of hyphenatedWords(text)) {
      const parts = hyphenated.split('-').filter((part) => part !== '');
      if (
        parts.length < 2 ||
        !parts.every((part) => inSearch.has(part)) ||
        parts.some((part) => places.has(part))
      )
        continue;
      if (!expander.knows(parts.join(' '))) continue;
      const kept = parts.reduce((longest, part) => (part.length > longest.length ? part : longest));
      for (const part of parts) if (part !== kept) pieces.add(part);
    }
    // a piece that is also a word of its own elsewhere in the search keeps its concept
    const alone = words.filter((word) => !hyphenatedWords(text).some((h) => h.split('-').includes(word)));
    return [...pieces].filter((piece) => !alone.includes(piece));
  }

  /** What the glossary, the synonyms and the gazetteer make of a search's words, and its language. */
  expand(query: QueryText): QueryExpansion {
    const expander = this.settings.SEARCH_GLOSSARY_WEIGHT > 0 ? this.expanders.all : this.expanders.synonyms;
    // one budget for the whole search's analysis (analysis-budget.ts), which the text side continues
    const work = new AnalysisWork();
    const { words } = query;
    // the language first: a real word of a language the search may be in is no misspelling
    const language = this.languages.guess(words, work);
    const isRealWord = (word: string) => this.isRealWord(word, language.language, work);
    const expansion = expander.size ? expander.expand(words, work, isRealWord) : NO_EXPANSION;
    const mentions = this.commonWordsApart(
      this.places.mentions(words, language.language),
      words,
      language.language,
      expansion.knownWords,
    );
    const placeNameWords: string[] = [];
    for (const mention of mentions) {
      for (const word of words.slice(mention.start, mention.start + mention.length)) {
        if (word !== mention.token) placeNameWords.push(word);
      }
    }
    const functionWords = [...new Set(words.filter((word) => this.stopWords.has(word)))];
    const placed = this.withPlaces(
      { ...expansion, placeNameWords, functionWords, language: withPlaceLanguage(language, mentions), work },
      mentions,
      words,
    );
    // a filler is a word no rule knows: a known word ("see", a lake) or a place's is the word
    const known = new Set(placed.knownWords);
    const fillerWords = [...new Set(words.filter((word) => this.fillerWords.has(word) && !known.has(word)))];
    const hyphenPieces = this.hyphenPiecesOf(query.text, words, placed);
    return {
      ...placed,
      ...(fillerWords.length ? { fillerWords } : {}),
      ...(hyphenPieces.length ? { hyphenPieces } : {}),
    };
  }

  /**
   * The expansion with the places a search names by a misspelt name (`islnd`, `patagonai`:
   * PlaceFinder.corrected), for its `words` (QueryText.words) of 5+ letters that the catalogue
   * does not hold (`isIndexed`), nothing else explains (known, or a place already) and that are
   * no real word of a language the search may be in (isRealWord: `parks` is not Paris).
   */
  withCorrectedPlaces(
    expansion: QueryExpansion,
    words: readonly string[],
    isIndexed: (word: string) => boolean,
  ): QueryExpansion {
    const explained = new Set([
      ...expansion.knownWords,
      // a filler word is a word of the sentence, not a misspelt place ("anyway", "wollte")
      ...(expansion.fillerWords ?? []),
      ...(expansion.placeWords ?? []),
      ...(expansion.placeNameWords ?? []),
    ]);
    const mentions: PlaceMention[] = [];
    const work = expansion.work ?? new AnalysisWork();
    for (const word of new Set(words)) {
      if (explained.has(word) || isIndexed(word)) continue;
      const mention = this.places.corrected(word, expansion.language?.language, work);
      if (!mention) continue;
      const real =
        !isOtherEnding(word, mention.name) && this.isRealWord(word, expansion.language?.language, work);
      if (!real) mentions.push(mention);
    }
    if (!mentions.length) return { ...expansion, work };
    const language = expansion.language && withPlaceLanguage(expansion.language, mentions);
    return this.withPlaces({ ...expansion, ...(language ? { language } : {}), work }, mentions, words);
  }

  /**
   * The mentions but those of a name that is a common word in every language (the gazetteer's
   * `ambiguous` column: `Spa:fr,de,en,it`) and a word the rules know (`knownWords`), in a search
   * whose language is not guessed, unless a preposition of place puts it (PlaceFinder.mentions
   * reads it so in a search of a known language). Whatever language the traveller wrote in, the
   * name is then the word: "spa weekend" and "spa retreat" are wellness, not the Belgian town
   * (a place covers only where the offer is: a "Wellness retreat" with a spa covered a quarter
   * of "spa retreat"). A name whose common sense the rules do not know (`gruyere`: the cheese is
   * the place's) stays the place, whose other names (`Greyerz`) find its offers.
   */
  private commonWordsApart(
    mentions: PlaceMention[],
    words: readonly string[],
    language: Language | undefined,
    knownWords: readonly string[],
  ): PlaceMention[] {
    if (language !== undefined) return mentions;
    const known = new Set(knownWords);
    const commonEverywhere = (mention: PlaceMention) =>
      known.has(mention.token) &&
      mention.matches.every((match) => LANGUAGES.every((each) => match.commonWordIn.includes(each)));
    if (!mentions.some(commonEverywhere)) return mentions;
    // read in any one language, such a name is a place only where a preposition puts it
    const placed = new Set(
      this.places.mentions(words, LANGUAGES[0]).map(({ start, name }) => `${start} ${name}`),
    );
    return mentions.filter(
      (mention) => !commonEverywhere(mention) || placed.has(`${mention.start} ${mention.name}`),
    );
  }

  /**
   * The expansion with the names of the places `mentions` name, their words as places, and the
   * places resolved (resolvePlaces: their points, regions and members, counted on the search's work).
   */
  private withPlaces(
    expansion: QueryExpansion,
    mentions: PlaceMention[],
    words: readonly string[],
  ): QueryExpansion {
    const terms: ExpandedTerm[] = [];
    for (const mention of mentions) {
      for (const { place } of mention.matches) {
        // never a name with a little word ("canton de geneve", "lago di como"): the text side
        // would look it up by its pairs, and "de genev" matches every "au départ de Genève"
        for (const name of this.places.namesOf(place)) {
          if (name !== mention.token && !isPhraseWithStopWord(name, this.stopWords))
            terms.push({ token: mention.token, term: name, kind: 'place' });
        }
        for (const name of this.places.withinNames(place)) {
          if (!isPhraseWithStopWord(name, this.stopWords))
            terms.push({ token: mention.token, term: name, kind: 'within' });
        }
      }
    }
    const placeWords = [...(expansion.placeWords ?? []), ...mentions.map((mention) => mention.token)];
    const resolved = mentions.length
      ? resolvePlaces(this.gazetteer, mentions, words, expansion.work ?? new AnalysisWork())
      : [];
    const places = [...(expansion.places ?? []), ...resolved];
    return {
      ...expansion,
      ...(places.length ? { places } : {}),
      // a place's words are neither typos nor compounds to split
      knownWords: [...new Set([...expansion.knownWords, ...placeWords, ...(expansion.placeNameWords ?? [])])],
      // first: a name that is also a glossary word counts as the place's (the kept kind of a term
      // found twice at one weight is the first given)
      terms: [...terms, ...expansion.terms],
      placeWords,
      namedPlaces: [
        ...(expansion.namedPlaces ?? []),
        ...mentions.map((mention) => ({
          name: mention.name,
          ids: mention.matches.map(({ place }) => place.id),
        })),
      ],
    };
  }

  /** Reads SEARCH_SYNONYMS_SOURCE again; on failure (SynonymsError naming the line) keeps the previous synonyms and throws. */
  async reloadSynonyms(): Promise<number> {
    const source = this.settings.SEARCH_SYNONYMS_SOURCE;
    if (!source) return 0;
    let rules: ExpansionRule[];
    try {
      rules = await readSynonymsSource(source, this.settings.synonymsSourceTimeoutMs);
    } catch (error) {
      this.metrics?.synonymReloads.inc({ result: 'failed' });
      throw error;
    }
    this.synonyms = rules;
    this.expanders = this.build();
    this.metrics?.synonymReloads.inc({ result: 'succeeded' });
    this.metrics?.synonymSets.set(rules.length);
    this.logger.log(`${rules.length} synonym sets read`);
    return rules.length;
  }

  private build(): { all: QueryExpander; synonyms: QueryExpander } {
    return {
      all: new QueryExpander([...this.glossary, ...this.synonyms], undefined, this.stopWords),
      synonyms: new QueryExpander(this.synonyms, undefined, this.stopWords),
    };
  }
}
