import { loadModule } from 'hunspell-asm';
import type { Hunspell } from 'hunspell-asm';
import { LANGUAGES, type Language } from '../analysis/languages';
import { accentsOf, dictionaryFiles, spellingsOf, withFoldedE } from '../dictionary/real-words';

/**
 * Which of the four languages a folded one-word place name is an ordinary word of (GAZETTEER.md,
 * "Towns"; docs/decisions.md D-87): the generator of towns.tsv and regions.tsv marks each bulk name
 * with them, so that `split`, `bath`, `nice`, `sale` or `ski` stay words unless a preposition of
 * place puts them (PlaceFinder's `ambiguous` rule). The project's Hunspell dictionaries
 * (dictionary/real-words.ts, D-82), with the accents a folded word lost put back (spellingsOf).
 *
 * Two differences from RealWords.isWord, both because a place name is checked here, not a
 * search's word: names of three letters are checked too (`ski`, `spa`, `bra`), and French,
 * English and Italian accept the spelling in lower case only, since their dictionaries hold place
 * names capitalised (`Paris`, `Nice`) and a capitalised check would make every such town a word.
 * German writes its nouns capitalised (`Zug`, `Bad`), so a capitalised German spelling counts too,
 * unless the dictionary holds it as a name (NAME_FLAGS: `Genf`, `Chur`, `Basel`); the few names it
 * takes for words (`Olten`, `Wohlen`, accepted as forms of other entries) cost a German search a
 * preposition before them, and never make a word a place.
 * Compounds are not words here: each dictionary is read without its COMPOUND rules, or German
 * would take most of its own town names for words (`Ringgenberg`, `Unterseen`, `Rheinfelden`).
 */
export const ORDINARY_WORD_MIN_LENGTH = 3;

interface Checker {
  hunspell: Hunspell;
  accents: Map<string, string[]>;
  /** The dictionary's entries written with a capital and flagged as names only (`Genf/Sm`). */
  names: Set<string>;
}

/**
 * The flags of the German dictionary's proper names (igerman98: `Genf/Sm`, `Zürich/Sm`,
 * `Davos/m`): a genitive `s` and nothing else; its nouns carry a plural or a compounding flag too
 * (`Zug/SETpmij`, `Bad/TSm`, `Ski/Smij`).
 */
const NAME_FLAGS = /^[Sm]*$/;

/** The capitalised entries of a `.dic` whose flags are a name's only (NAME_FLAGS). */
export function namesOf(dic: string): Set<string> {
  const names = new Set<string>();
  for (const line of dic.split('\n')) {
    const match = /^(\p{Lu}[^/\s]*)(?:\/(\S*))?\s*$/u.exec(line);
    if (match && NAME_FLAGS.test(match[2] ?? '')) names.add(match[1]);
  }
  return names;
}

/** A dictionary's `.aff` without its compounding rules (every `COMPOUND…` line), bytes kept as they are. */
export function withoutCompounds(aff: Buffer): Buffer {
  const text = aff.toString('latin1');
  return Buffer.from(
    text
      .split('\n')
      .filter((line) => !line.startsWith('COMPOUND'))
      .join('\n'),
    'latin1',
  );
}

export class OrdinaryWords {
  private readonly remembered = new Map<string, Language[]>();

  private constructor(private readonly checkers: Map<Language, Checker>) {}

  /** Hunspell compiled and the four dictionaries read (a few seconds: build time only). */
  static async load(): Promise<OrdinaryWords> {
    const factory = await loadModule();
    const checkers = new Map<Language, Checker>();
    for (const language of LANGUAGES) {
      const { aff, dic } = dictionaryFiles(language);
      const affPath = factory.mountBuffer(withoutCompounds(aff), `${language}.aff`);
      const dicPath = factory.mountBuffer(dic, `${language}.dic`);
      const hunspell = factory.create(affPath, dicPath);
      factory.unmount(affPath);
      factory.unmount(dicPath);
      const text = dic.toString('utf8');
      checkers.set(language, {
        hunspell,
        accents: withFoldedE(accentsOf(text)),
        names: language === 'de' ? namesOf(text) : new Set(),
      });
    }
    return new OrdinaryWords(checkers);
  }

  /**
   * The languages (in LANGUAGES order) in which a folded name is an ordinary word: none for a
   * name of several words, shorter than ORDINARY_WORD_MIN_LENGTH or holding anything but letters.
   */
  languagesOf(folded: string): Language[] {
    if (folded.length < ORDINARY_WORD_MIN_LENGTH || !/^\p{L}+$/u.test(folded)) return [];
    let languages = this.remembered.get(folded);
    if (languages) return languages;
    languages = LANGUAGES.filter((language) => {
      const { hunspell, accents, names } = this.checkers.get(language)!;
      return spellingsOf(folded, accents).some((spelling) => {
        if (hunspell.spell(spelling)) return true;
        if (language !== 'de') return false;
        const capitalised = spelling.charAt(0).toUpperCase() + spelling.slice(1);
        return !names.has(capitalised) && hunspell.spell(capitalised);
      });
    });
    this.remembered.set(folded, languages);
    return languages;
  }
}
