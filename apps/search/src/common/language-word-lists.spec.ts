import { foldWords } from '../query/analysis/tokenizer';
import { parseLanguageWordLists } from './language-word-lists';
import { DataFileError } from './tsv';

const LANGUAGES = ['fr', 'de'] as const;
const parse = (...lines: string[]) =>
  parseLanguageWordLists(['# little words', 'language\twords', ...lines].join('\n'), {
    languages: LANGUAGES,
    foldWords,
    error: (line, reason) => new DataFileError('words.tsv', line, reason),
  });

describe('parseLanguageWordLists', () => {
  it('reads one list a language, its words separated by ";"', () => {
    expect(parse('fr\tle; la; a', 'de\tder; die')).toEqual({ fr: ['le', 'la', 'a'], de: ['der', 'die'] });
  });

  it('refuses, naming the line, what a reviewer must fix', () => {
    expect(() => parse('fr\tle', 'es\tel')).toThrow('words.tsv, line 4: unknown language "es" (fr, de)');
    expect(() => parse('fr\tle', 'fr\tla')).toThrow('words.tsv, line 4: language "fr" given twice');
    expect(() => parse('fr\t ; ', 'de\tder')).toThrow('words.tsv, line 3: no word');
    expect(() => parse('fr\tà', 'de\tder')).toThrow('words.tsv, line 3: "à" is not one folded word');
    expect(() => parse('fr\tau bord', 'de\tder')).toThrow('"au bord" is not one folded word');
    expect(() => parse('fr\tle; la; le', 'de\tder')).toThrow('words.tsv, line 3: "le" given twice');
    expect(() => parse('fr\tle')).toThrow('words.tsv, line 3: no words of de');
    expect(() => parse('fr\tle\textra', 'de\tder')).toThrow('words.tsv, line 3: 3 columns, 2 expected');
  });
});
