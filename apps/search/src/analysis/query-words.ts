/**
 * How the analysis numbers a search's words in its terms (AnalysedTerm.word): word i is its i-th
 * word (1-based), -i the tail of word i split as a compound, and PAIR_WORD + i the pair of
 * adjacent words ending at word i (a phrase).
 */
export const PAIR_WORD = 1000;
