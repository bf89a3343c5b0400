/**
 * Searches written as people type them into a search box: single common words, place
 * names, two or three words, long sentences in French, German and English, typos, some with
 * filters. `pnpm bench:search` sends each one at a time, then with 4 clients.
 */
export const TYPED_SEARCHES: Record<string, string>[] = [
  // single common words
  { search: 'ski' },
  { search: 'randonnée' },
  { search: 'beach' },
  { search: 'wellness' },
  { search: 'Wandern' },
  { search: 'croisière' },
  { search: 'family' },
  { search: 'velo' },
  // place names
  { search: 'Zermatt' },
  { search: 'Lisboa' },
  { search: 'St. Moritz' },
  { search: 'Reykjavik' },
  { search: 'Cinque Terre' },
  { search: 'Lago di Como' },
  { search: 'Côte d’Azur' },
  { search: 'Zuerich' },
  // two or three words
  { search: 'ski Zermatt' },
  { search: 'beach Naxos' },
  { search: 'Wanderung am See' },
  { search: 'wine tasting Toscana' },
  { search: 'city break Praha' },
  { search: 'Kultur Wien' },
  { search: 'cooking class Italy' },
  { search: 'thermes Suisse' },
  // long sentences
  { search: 'hiking the alps with family' },
  { search: 'kultur und museen in zurich' },
  { search: 'croisiere sur le lac leman avec degustation de vin' },
  { search: 'a relaxing weekend with wellness and good food in the mountains' },
  { search: 'week-end romantique à Paris avec dîner gastronomique' },
  { search: 'Skiurlaub mit der ganzen Familie in den Bergen von Tirol' },
  { search: 'train journey through the fjords of Norway in summer' },
  { search: 'randonnée en montagne pour débutants dans les Dolomites' },
  // typos
  { search: 'Barcleona' },
  { search: 'Santorni' },
  { search: 'randonee' },
  { search: 'Dubrovnick' },
  { search: 'wellnes hotel' },
  { search: 'Schwarzwlad wandern' },
  // with filters
  { search: 'ski', category: 'ski' },
  { search: 'ski', destination: 'CH' },
  { search: 'beach holidays', seaside: 'true' },
  { search: 'Wandern', category: 'hiking', hide_invalid: 'true' },
  { search: 'culture city break', destination: 'IT', discountclub: 'true' },
  { search: 'family holidays by the sea', dates: '2027-07-01_2027-08-31' },
  { search: 'croisière', destination: 'NO', category: 'cruise' },
];
