/** How much of a search the text side reads (apps/search/README.md, "The text side"). */

/** The first words of a search the text side analyses; the rest is left to the semantic side. */
export const QUERY_WORDS = 16;

/**
 * The most index terms a query word gains by expansion (its expanded words' folded forms and stems
 * found in the index), those weighing most, then held by the most offers: each is a list the text
 * side reads (measured: docs/benchmarks.md, "Query expansion").
 */
export const EXPANSIONS_PER_WORD = 12;
