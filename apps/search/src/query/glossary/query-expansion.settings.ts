import { FloatSetting, IntSetting, StringSetting } from '@rt/platform';

/**
 * The words a search gains (QueryExpansionService) and the weight of each kind in the text side's
 * score (a request's `expansionWeights`: travels-request.ts), validated at start-up.
 */
export class QueryExpansionSettings {
  /**
   * The weight of a word a search gains from the travel glossary as a translation (the same
   * concept's word in another language: apps/search/README.md, "Query expansion"), beside an exact
   * word's 1 and a typo correction's 0.6 / 0.4. A translation covers its query word's concept as the
   * word itself does ("Concept coverage"); its weight only orders offers of the same coverage. 0
   * turns the glossary off.
   */
  @FloatSetting({ min: 0, max: 1 })
  SEARCH_GLOSSARY_WEIGHT: number = 0.9;

  /**
   * The weight of a word of a narrower concept a search gains from the glossary's hierarchy
   * ("Wintersport" finding skiing, snowboarding and snowshoeing; apps/search/README.md, "Broader
   * and narrower concepts"), below a translation's. 0 turns it off.
   */
  @FloatSetting({ min: 0, max: 1 })
  SEARCH_NARROWER_WEIGHT: number = 0.5;

  /**
   * The weight of a word of a near concept or of an item's theme a search gains from the
   * glossary's links ("Strandurlaub" finding "plage", "castle" finding culture offers;
   * apps/search/README.md, "Near concepts and items"), below a translation's; such a word covers
   * only a minor concept of the search, so the offers that name the search's own concept rank
   * first. 0 turns it off.
   */
  @FloatSetting({ min: 0, max: 1 })
  SEARCH_RELATED_WEIGHT: number = 0.5;

  /**
   * The weight of another name of a place a search names (the gazetteer: "Wallis" finding
   * "Valais", "Vallese"; apps/search/README.md, "Places"), beside an exact word's 1. 0 leaves
   * places to their own names.
   */
  @FloatSetting({ min: 0, max: 1 })
  SEARCH_PLACE_WEIGHT: number = 0.9;

  /**
   * The weight of the name of a place inside the one a search names ("Wallis" finding "Zermatt"),
   * below the place's own names. 0 turns it off.
   */
  @FloatSetting({ min: 0, max: 1 })
  SEARCH_PLACE_WITHIN_WEIGHT: number = 0.6;

  /**
   * Operator synonyms (apps/search/README.md, "Query expansion"): a file path or an `http(s)://`
   * URL of a synonyms file in Solr's format (`a, b, c` multi-way, `a => b` one-way), read at start
   * (a file that cannot be read or parsed stops the start, naming the line) and at each reindex
   * (then refused, keeping the previous synonyms). Unset: none.
   */
  @StringSetting()
  SEARCH_SYNONYMS_SOURCE?: string;

  /** The weight of a word a search gains from an operator synonym (as SEARCH_GLOSSARY_WEIGHT); 0 turns them off. */
  @FloatSetting({ min: 0, max: 1 })
  SEARCH_SYNONYM_WEIGHT: number = 0.9;

  /**
   * How long after the service starts its languages' Hunspell dictionaries are read in the
   * background (query/dictionary/real-words.ts; D-82), in milliseconds: one language at a time,
   * each on its own turn of the event loop (0.1–0.25 s each), so that no search pays for reading
   * one and none waits behind all four. A search before then reads what it needs itself. 0: no
   * preload, each dictionary read at the first search that needs it.
   */
  @IntSetting({ min: 0, max: 600_000 })
  SEARCH_DICTIONARY_PRELOAD_MS: number = 2000;

  // Derived by loadSearchConfig (config.ts), not read from the environment:

  /** How long an HTTP synonyms source may take, in milliseconds: CATALOGUE_SOURCE_TIMEOUT_MS. */
  synonymsSourceTimeoutMs!: number;
}
