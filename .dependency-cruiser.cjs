// The import rules `pnpm lint` checks (dependency-cruiser, `depcruise`): no module of either service
// imports itself back through others, and the search service's folders import one way, from its
// analysis up to its HTTP routes (docs/architecture.md, "The search service's layers"). Tests are
// left out: a spec may reach across layers to set its case up.

/** The search service's folders by layer, lowest first: a layer imports only its own and those below. */
const SEARCH_LAYERS = [
  // what every layer may use: shared helpers, the catalogue's records and dates, the metrics, the
  // embedding provider, the database's connections and migrations
  { name: 'foundation', folders: ['common', 'catalogue', 'metrics', 'embedding', 'database'] },
  // understanding the search: the analyzer (tokenizer, term dictionary, string metrics, stems,
  // compounds, typos, limits, the analysed query), the places, then the expansion (the glossary,
  // the operator synonyms, the language guess)
  { name: 'analysis', folders: ['query/analysis'] },
  // the languages' own words (the Hunspell dictionaries), which the typo rules ask
  { name: 'dictionaries', folders: ['query/dictionary'] },
  { name: 'places', folders: ['query/gazetteer'] },
  { name: 'expansion', folders: ['query/glossary'] },
  // the parsed request of GET /travels and its filters
  { name: 'request', folders: ['request'] },
  // the SQL statements
  { name: 'statements', folders: ['sql'] },
  // the in-memory text and vector indexes, their query analysis, and the reindex that writes them
  { name: 'indexes', folders: ['indexes'] },
  // the ranked listings, the semantic sides and their fusion
  { name: 'ranking', folders: ['ranking'] },
  { name: 'HTTP', folders: ['http'] },
  // the composition: the app module, the configuration, the entity list, start-up
  { name: 'app', files: ['[^/]+\\.ts'] },
  // the commands and tools, each an entry point of its own
  {
    name: 'entry points',
    folders: ['cli', 'bench', 'relevance'],
  },
];

const SEARCH_SRC = '^apps/search/src/';

/** One regular expression for the modules of some layers. */
function modulesOf(layers) {
  const alternatives = layers.flatMap(({ folders = [], files = [] }) => [
    ...folders.map((folder) => `${folder}/`),
    ...files.map((file) => `${file}$`),
  ]);
  return `${SEARCH_SRC}(${alternatives.join('|')})`;
}

const ENTRY_POINTS = modulesOf(SEARCH_LAYERS.filter(({ name }) => name === 'entry points'));

const layerRules = SEARCH_LAYERS.slice(0, -1).map((layer, i) => {
  const above = SEARCH_LAYERS.slice(i + 1);
  return {
    name: `search-layer-${layer.name.replace(/ /g, '-')}`,
    comment: `The search service's ${layer.name} layer imports no layer above it (${above.map(({ name }) => name).join(', ')}).`,
    severity: 'error',
    from: { path: modulesOf([layer]), pathNot: ENTRY_POINTS },
    to: { path: modulesOf(above) },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A module imports itself back through others (type-only imports count).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'search-no-folder-cycle',
      comment: 'A folder of the search service imports a folder that imports it back (directly or not).',
      severity: 'error',
      scope: 'folder',
      from: { path: SEARCH_SRC },
      to: { circular: true },
    },
    {
      name: 'search-folder-without-layer',
      comment:
        'A folder of the search service is in no layer: add it to SEARCH_LAYERS (.dependency-cruiser.cjs).',
      severity: 'error',
      from: { path: SEARCH_SRC, pathNot: modulesOf(SEARCH_LAYERS) },
      to: {},
    },
    ...layerRules,
  ],
  options: {
    includeOnly: '^apps/(backend|search)/src/',
    exclude: { path: '\\.spec(-helper)?\\.ts$' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
