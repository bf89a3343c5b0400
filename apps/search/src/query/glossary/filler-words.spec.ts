import { readFileSync } from 'node:fs';
import { FILLER_WORDS_PATH, loadFillerWords } from './filler-words';
import { readFillerReview, readStopwordsIso, renderFillerWords } from './generate-filler-words';
import { loadStopWords } from './stop-words';

describe('filler words (filler-words.tsv)', () => {
  it('is exactly what the generator writes from the stopwords-iso lists and the review', () => {
    expect(readFileSync(FILLER_WORDS_PATH, 'utf8')).toBe(renderFillerWords());
  });

  it('holds sentence words of each language, no function word and no reviewed word', () => {
    const fillers = loadFillerWords();
    // written folded as a search's words are: "quelques" keeps its "ue" after "q" (D-54)
    expect(fillers.fr).toEqual(expect.arrayContaining(['quelques', 'plusieurs', 'aussi']));
    expect(fillers.en).toEqual(expect.arrayContaining(['want', 'along', 'several']));
    expect(fillers.de).toEqual(expect.arrayContaining(['mochte', 'ware']));
    expect(fillers.it).toEqual(expect.arrayContaining(['qualche', 'alcuni']));
    const functionWords = loadStopWords();
    const review = readFillerReview();
    for (const [language, words] of Object.entries(fillers) as [keyof typeof review, string[]][]) {
      expect(words.filter((word) => functionWords.has(word))).toEqual([]);
      expect(words.filter((word) => review[language].has(word))).toEqual([]);
    }
  });

  it('stops on a reviewed word the lists no longer hold', () => {
    const lists = readStopwordsIso();
    const review = readFillerReview();
    review.en.add('zzzznotalistword');
    expect(() => renderFillerWords(lists, review)).toThrow(/en zzzznotalistword not in the list/);
  });
});
