/**
 * The category slugs of the generated demo catalogue, in the order of its themes
 * (apps/search/src/catalogue/generator-data.ts `THEMES`; apps/search/src/bench/demo-categories.spec.ts
 * holds the two together). The benchmarks and load mixes draw their category filters from it.
 */
export const DEMO_CATEGORY_SLUGS = [
  'city-break',
  'beach',
  'hiking',
  'culture',
  'gastronomy',
  'wellness',
  'cruise',
  'road-trip',
  'ski',
  'family',
  'adventure',
  'wildlife',
  'cycling',
  'train',
] as const;

export type DemoCategorySlug = (typeof DEMO_CATEGORY_SLUGS)[number];
