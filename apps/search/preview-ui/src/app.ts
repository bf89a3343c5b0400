// The search preview page (docs/preview.md): the controls hold a query of `GET /travels`, kept in
// the page's address; each change asks the service that serves the page, through @rt/client.
import { createSearchClient, isApiError, type TravelListing, type InfoDensity } from '@rt/client';
import type { PreviewSettings } from '../../src/http/preview/preview-settings';
import { renderCard } from './cards';
import { byId, h } from './dom';
import type { RankingContext } from './explanation';
import { countryName, formatCount, formatDecimal } from './format';
import { categoryLabel, toOfferView } from './offer-view';
import {
  EMPTY_QUERY,
  FUSION_KNOBS,
  fromPageParams,
  isSearching,
  toPageParams,
  toSearchParams,
  toTravelsQuery,
  type FusionKnob,
  type OrderBy,
  type PreviewQuery,
  type TriState,
} from './query';

const SEARCH_DEBOUNCE_MS = 250;
const SLIDER_DEBOUNCE_MS = 200;

const settings = JSON.parse(byId('preview-settings', HTMLScriptElement).textContent ?? '') as PreviewSettings;
const client = createSearchClient({ baseUrl: location.origin });

const controls = {
  searchForm: byId('search-form', HTMLFormElement),
  filtersForm: byId('filters-form', HTMLFormElement),
  search: byId('search', HTMLInputElement),
  destination: byId('destination', HTMLSelectElement),
  categories: byId('categories', HTMLDivElement),
  dateFrom: byId('date-from', HTMLInputElement),
  dateTo: byId('date-to', HTMLInputElement),
  hideInvalid: byId('hide-invalid', HTMLInputElement),
  discountclub: byId('discountclub', HTMLSelectElement),
  seaside: byId('seaside', HTMLSelectElement),
  orderBy: byId('order-by', HTMLSelectElement),
  orderDirection: byId('order-direction', HTMLSelectElement),
  density: byId('density', HTMLSelectElement),
  size: byId('size', HTMLSelectElement),
  fusionKnobs: byId('fusion-knobs', HTMLDivElement),
  resetFusion: byId('reset-fusion', HTMLButtonElement),
};
const view = {
  serviceLine: byId('service-line', HTMLParagraphElement),
  results: byId('results', HTMLElement),
  status: byId('status', HTMLParagraphElement),
  requestLink: byId('request-link', HTMLAnchorElement),
  requestCode: byId('request-code', HTMLElement),
  error: byId('error', HTMLDivElement),
  cards: byId('cards', HTMLOListElement),
  firstPage: byId('first-page', HTMLButtonElement),
  previousPage: byId('previous-page', HTMLButtonElement),
  nextPage: byId('next-page', HTMLButtonElement),
  pageLabel: byId('page-label', HTMLSpanElement),
};

interface KnobSpec {
  label: string;
  hint: string;
  min: number;
  max: number;
  step: number;
  digits: number;
}

const KNOBS: Record<FusionKnob, KnobSpec> = {
  rrfVectorWeight: {
    label: 'Semantic weight',
    hint: '0 ranks by the text alone, 1 by the semantic similarity alone.',
    min: 0,
    max: 1,
    step: 0.01,
    digits: 2,
  },
  semanticFloor: {
    label: 'Semantic floor',
    hint: 'The lowest cosine similarity the semantic side keeps.',
    min: 0,
    max: 1,
    step: 0.01,
    digits: 2,
  },
  tsvectorFloor: {
    label: 'Text floor',
    hint: 'The lowest text score the text side keeps (0 keeps any offer holding a search word).',
    min: 0,
    max: Math.max(30, Math.ceil(settings.defaults.tsvectorFloor * 2)),
    step: 0.5,
    digits: 1,
  },
};

let query: PreviewQuery = fromPageParams(new URLSearchParams(location.search));
let latestRequest = 0;
const knobInputs = new Map<FusionKnob, { input: HTMLInputElement; output: HTMLOutputElement }>();

function renderServiceLine(): void {
  const { service, defaults, embeddingProvider } = settings;
  view.serviceLine.textContent =
    `${service.name}${service.version ? ` ${service.version}` : ''} · embedding provider ${embeddingProvider}` +
    ` · fusion defaults: semantic weight ${defaults.rrfVectorWeight}, semantic floor ${defaults.semanticFloor},` +
    ` text floor ${defaults.tsvectorFloor}, k ${defaults.rrfK}`;
}

function buildKnobs(): void {
  for (const knob of FUSION_KNOBS) {
    const spec = KNOBS[knob];
    const id = `knob-${knob}`;
    const input = h('input', {
      id,
      name: knob,
      type: 'range',
      min: spec.min,
      max: spec.max,
      step: spec.step,
      'aria-describedby': `${id}-hint`,
    });
    // The slider itself tells its value (aria-valuetext): the output is not announced a second time.
    const output = h('output', { id: `${id}-value`, for: id, 'aria-live': 'off' });
    controls.fusionKnobs.append(
      h(
        'div',
        { class: 'knob' },
        h('label', { for: id }, `${spec.label} `, h('code', {}, knob)),
        h('div', { class: 'knob-row' }, input, output),
        h('p', { class: 'hint', id: `${id}-hint` }, spec.hint),
      ),
    );
    knobInputs.set(knob, { input, output });
  }
}

function showKnob(knob: FusionKnob): void {
  const { input, output } = knobInputs.get(knob)!;
  const value = query.fusion[knob] ?? settings.defaults[knob];
  input.value = String(value);
  const text = `${formatDecimal(value, KNOBS[knob].digits)}${query.fusion[knob] === null ? ' (default)' : ''}`;
  output.textContent = text;
  input.setAttribute('aria-valuetext', text);
}

/** The facets of an answer (D-81), as the choices read them. */
type Facets = NonNullable<TravelListing<InfoDensity>['facets']>;

/**
 * A choice's count as its label shows it: 0 for a chosen value the answer did not count, nothing
 * before the first answer.
 */
function countText(facets: Facets | undefined, count: number | undefined, unknown: boolean): string {
  if (!facets) return '';
  if (unknown) return 'not in the catalogue';
  return count === undefined ? '0' : formatCount(count);
}

function categoryCheckbox(slug: string, count: string): HTMLElement {
  const id = `category-${slug}`;
  return h(
    'div',
    { class: 'checkbox' },
    h('input', { id, type: 'checkbox', name: 'category', value: slug }),
    h(
      'label',
      { for: id },
      categoryLabel(slug),
      count ? ' ' : '',
      count ? h('span', { class: 'choice-count' }, count) : '',
    ),
  );
}

const categoryBoxes = (): HTMLInputElement[] => [
  ...controls.categories.querySelectorAll<HTMLInputElement>('input[type=checkbox]'),
];

/** A field's counts by value, and how many values the answer left out. */
function countsOf(facets: Facets | undefined, field: 'category' | 'destination') {
  const counted = facets?.counts[field];
  return {
    counts: new Map((counted?.values ?? []).map(({ value, count }) => [value, count])),
    leftOut: counted?.valuesLeftOut ?? 0,
    unknown: new Set(facets?.unknownFilterValues[field] ?? []),
  };
}

/**
 * Lists the destination and category choices from the facets of the current answer, each with its
 * count over the set the answer's total counts (every filter applied, the field's own included:
 * with a destination chosen, only it is counted; "Any destination" lists them all again). What is
 * chosen stays listed and chosen, with 0 or "not in the catalogue"; the keyboard focus stays on
 * the checkbox it was on. Without facets (before the first answer), the chosen values alone.
 */
function showChoices(
  facets: Facets | undefined,
  chosen: Pick<PreviewQuery, 'destination' | 'categories'>,
): void {
  const destinations = countsOf(facets, 'destination');
  const codes = [
    ...new Set([...destinations.counts.keys(), ...(chosen.destination ? [chosen.destination] : [])]),
  ];
  codes.sort((a, b) => countryName(a).localeCompare(countryName(b)));
  const [anyDestination] = [...controls.destination.options];
  controls.destination.replaceChildren(
    anyDestination,
    ...codes.map((code) =>
      h(
        'option',
        { value: code },
        [
          `${countryName(code)} (${code})`,
          countText(facets, destinations.counts.get(code), destinations.unknown.has(code)),
        ]
          .filter(Boolean)
          .join(' · '),
      ),
    ),
    ...(destinations.leftOut > 0
      ? [
          h(
            'option',
            { value: '', disabled: true },
            `${formatCount(destinations.leftOut)} more with fewer offers`,
          ),
        ]
      : []),
  );
  controls.destination.value = chosen.destination;

  const categories = countsOf(facets, 'category');
  const focused = document.activeElement instanceof HTMLInputElement ? document.activeElement.id : '';
  const slugs = [...new Set([...categories.counts.keys(), ...chosen.categories])].sort((a, b) =>
    categoryLabel(a).localeCompare(categoryLabel(b)),
  );
  controls.categories.replaceChildren(
    ...slugs.map((slug) =>
      categoryCheckbox(slug, countText(facets, categories.counts.get(slug), categories.unknown.has(slug))),
    ),
  );
  for (const box of categoryBoxes()) box.checked = chosen.categories.includes(box.value);
  if (focused) document.getElementById(focused)?.focus();
}

/** The page's address says the query (`/preview?search=…`), so a preview can be shared. */
function showAddress(shown: PreviewQuery): void {
  const params = toPageParams(shown).toString();
  history.replaceState(null, '', `${location.pathname}${params ? `?${params}` : ''}`);
}

/** The controls as `query` says (choices the page does not offer yet are added). */
function writeControls(): void {
  showChoices(undefined, query);
  controls.search.value = query.search;
  controls.dateFrom.value = query.dateFrom;
  controls.dateTo.value = query.dateTo;
  controls.hideInvalid.checked = query.hideInvalid;
  controls.discountclub.value = query.discountclub;
  controls.seaside.value = query.seaside;
  controls.orderBy.value = query.orderBy ?? '';
  controls.orderDirection.value = query.orderDirection;
  controls.density.value = query.infoDensity;
  controls.size.value = String(query.size);
  for (const knob of FUSION_KNOBS) showKnob(knob);
  showOrderState();
}

/** The query the controls say, on its first page. */
function readControls(): PreviewQuery {
  return {
    ...query,
    search: controls.search.value,
    destination: controls.destination.value,
    categories: categoryBoxes().flatMap((box) => (box.checked ? [box.value] : [])),
    dateFrom: controls.dateFrom.value,
    dateTo: controls.dateTo.value,
    hideInvalid: controls.hideInvalid.checked,
    discountclub: controls.discountclub.value as TriState,
    seaside: controls.seaside.value as TriState,
    orderBy: (controls.orderBy.value || null) as OrderBy | null,
    orderDirection: controls.orderDirection.value === 'desc' ? 'desc' : 'asc',
    infoDensity: controls.density.value as InfoDensity,
    size: Number(controls.size.value),
    page: 1,
  };
}

/** A search ranks by relevance: the order controls say so while one is typed. */
function showOrderState(): void {
  const searching = isSearching(query);
  controls.orderBy.disabled = searching;
  controls.orderDirection.disabled = searching;
}

function totalText(listing: TravelListing<InfoDensity>): string {
  const count = `${formatCount(listing.totalRecords)} ${listing.totalRecords === 1 ? 'offer' : 'offers'}`;
  return listing.totalRecordsRelation === 'gte' ? `at least ${count}` : count;
}

function renderListing(
  listing: TravelListing<InfoDensity> & { fallback: boolean },
  asked: PreviewQuery,
  elapsedMs: number,
  context: RankingContext,
): void {
  const pages = Math.max(1, Math.ceil(listing.totalRecords / asked.size));
  const time = `answered in ${Math.round(elapsedMs)} ms`;
  view.status.textContent =
    listing.totalRecords === 0
      ? `No offer matches: try other words, fewer filters or lower floors · ${time}`
      : `${totalText(listing)} · page ${listing.page} of ${formatCount(pages)} · ${time}` +
        (listing.fallback ? ' · ranked by the text alone (the embedding provider did not answer)' : '');
  const firstRank = (listing.page - 1) * asked.size + 1;
  view.cards.replaceChildren(
    ...listing.records.map((record, index) => renderCard(toOfferView(record), firstRank + index, context)),
  );
  view.pageLabel.textContent = `Page ${formatCount(listing.page)} of ${formatCount(pages)}`;
  view.firstPage.disabled = listing.page <= 1;
  view.previousPage.disabled = listing.page <= 1;
  view.nextPage.disabled = listing.page >= pages;
  showChoices(listing.facets, asked);
}

function renderError(error: unknown): void {
  view.cards.replaceChildren();
  view.status.textContent = 'The search failed';
  view.error.hidden = false;
  if (isApiError(error)) {
    const fields =
      error.body.error === 'validation_failed'
        ? Object.entries(error.body.errors).map(([field, messages]) =>
            h('li', {}, `${field}: ${messages.join(' ')}`),
          )
        : [];
    view.error.replaceChildren(
      h('p', {}, `The service answered ${error.status} (${error.body.error}): ${error.body.message}`),
      fields.length > 0 ? h('ul', {}, ...fields) : '',
    );
  } else {
    view.error.replaceChildren(h('p', {}, `The service could not be reached: ${String(error)}`));
  }
}

/** Asks the service for the current query; an answer to an older one is dropped. */
async function run(): Promise<void> {
  const asked = query;
  const travels = toTravelsQuery(asked);
  const requestPath = `/travels?${toSearchParams(travels).toString()}`;
  showAddress(asked);
  view.requestLink.href = requestPath;
  view.requestCode.textContent = `GET ${decodeURIComponent(requestPath)}`;
  view.results.setAttribute('aria-busy', 'true');
  const context: RankingContext = {
    semanticFloor: asked.fusion.semanticFloor ?? settings.defaults.semanticFloor,
    tsvectorFloor: asked.fusion.tsvectorFloor ?? settings.defaults.tsvectorFloor,
  };
  const request = ++latestRequest;
  const started = performance.now();
  try {
    const listing = await client.travels(travels);
    if (request !== latestRequest) return;
    view.error.hidden = true;
    renderListing(listing, asked, performance.now() - started, context);
  } catch (error) {
    if (request !== latestRequest) return;
    renderError(error);
  } finally {
    if (request === latestRequest) view.results.removeAttribute('aria-busy');
  }
}

function debounced(action: () => void, delayMs: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(action, delayMs);
  };
}

function applyControls(): void {
  query = readControls();
  showOrderState();
  void run();
}

const searchSoon = debounced(applyControls, SEARCH_DEBOUNCE_MS);
const slidersSoon = debounced(() => {
  query = { ...query, page: 1 };
  if (isSearching(query)) void run();
  else showAddress(query);
}, SLIDER_DEBOUNCE_MS);

function goToPage(page: number): void {
  query = { ...query, page };
  void run().then(() => view.results.focus());
}

function wireControls(): void {
  controls.searchForm.addEventListener('submit', (event) => {
    event.preventDefault();
    applyControls();
  });
  controls.filtersForm.addEventListener('submit', (event) => event.preventDefault());
  controls.search.addEventListener('input', searchSoon);
  controls.filtersForm.addEventListener('change', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type === 'range') return;
    applyControls();
  });
  for (const knob of FUSION_KNOBS) {
    const { input } = knobInputs.get(knob)!;
    input.addEventListener('input', () => {
      query = { ...query, fusion: { ...query.fusion, [knob]: Number(input.value) } };
      showKnob(knob);
      slidersSoon();
    });
  }
  controls.resetFusion.addEventListener('click', () => {
    query = { ...query, page: 1, fusion: { ...EMPTY_QUERY.fusion } };
    for (const knob of FUSION_KNOBS) showKnob(knob);
    if (isSearching(query)) void run();
  });
  view.firstPage.addEventListener('click', () => goToPage(1));
  view.previousPage.addEventListener('click', () => goToPage(Math.max(1, query.page - 1)));
  view.nextPage.addEventListener('click', () => goToPage(query.page + 1));
}

renderServiceLine();
buildKnobs();
writeControls();
wireControls();
void run();
