/** The languages the analysis knows words in: the glossary's columns, the places' names, the language guess. */
export const LANGUAGES = ['fr', 'de', 'en', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];
