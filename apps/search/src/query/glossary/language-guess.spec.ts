import { QUERIES } from '../../relevance/build-multilingual-judgements';
import { foldWords } from '../analysis/tokenizer';
import { loadTravelGlossary } from './glossary';
import { LanguageGuesser, loadFunctionWords } from './language-guess';

describe('LanguageGuesser', () => {
  const guesser = new LanguageGuesser(loadTravelGlossary(), loadFunctionWords());
  const guess = (search: string) => guesser.guess(foldWords(search));

  it('guesses from glossary words, little words and compounds of a known part', () => {
    expect(guess('Wanderung in den Bergen').language).toBe('de');
    expect(guess('randonnée en Corse').language).toBe('fr');
    expect(guess('hiking with kids').language).toBe('en');
    expect(guess('vacanze al mare in Sardegna').language).toBe('it');
    // "weinreise": "reise" is German
    expect(guess('weinreise').language).toBe('de');
    expect(guess('Weinreise').evidence).toEqual([{ word: 'weinreise', languages: ['de'] }]);
  });

  it('guesses nothing on a tie or without a known word', () => {
    expect(guess('Zermatt').language).toBeUndefined();
    expect(guess('xyzzyqqq').evidence).toEqual([]);
    // "ski" is a word of several languages
    expect(guess('ski').language).toBeUndefined();
  });

  it('guesses most of the judged multilingual searches, and none wrong', () => {
    const typed = QUERIES.filter((query) => query.language !== undefined);
    const guesses = typed.map((query) => ({ query, guessed: guess(query.query).language }));
    const right = guesses.filter(({ query, guessed }) => guessed === query.language);
    const wrong = guesses.filter(({ guessed, query }) => guessed !== undefined && guessed !== query.language);
    expect(typed.length).toBeGreaterThanOrEqual(100);
    expect(wrong.map(({ query, guessed }) => `${query.query}: ${guessed}`)).toEqual([]);
    expect(right.length / typed.length).toBeGreaterThanOrEqual(0.85);
  });
});
