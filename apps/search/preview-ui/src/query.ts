import type { InfoDensity, TravelsQuery } from '@rt/client';

export type TriState = 'any' | 'yes' | 'no';
export type OrderBy = NonNullable<TravelsQuery['orderBy']>;
export type OrderDirection = NonNullable<TravelsQuery['orderDirection']>;
export type FusionKnob = 'rrfVectorWeight' | 'semanticFloor' | 'tsvectorFloor';

export const DENSITIES: readonly InfoDensity[] = ['full', 'search', 'card', 'min'];
export const ORDERS: readonly OrderBy[] = ['rating', 'departure', 'duration'];
export const PAGE_SIZES: readonly number[] = [8, 16, 24, 48];
export const FUSION_KNOBS: readonly FusionKnob[] = ['rrfVectorWeight', 'semanticFloor', 'tsvectorFloor'];

/** What the page's controls say: the address of the page holds it, with `GET /travels`'s names. */
export interface PreviewQuery {
  search: string;
  /** ISO-2 code; '' for any. */
  destination: string;
  categories: string[];
  /** `YYYY-MM-DD`, or '' when not set. */
  dateFrom: string;
  dateTo: string;
  hideInvalid: boolean;
  discountclub: TriState;
  seaside: TriState;
  /** null: the catalogue's id order. */
  orderBy: OrderBy | null;
  orderDirection: OrderDirection;
  infoDensity: InfoDensity;
  size: number;
  page: number;
  /** null: the service's default. */
  fusion: Record<FusionKnob, number | null>;
}

export const EMPTY_QUERY: PreviewQuery = {
  search: '',
  destination: '',
  categories: [],
  dateFrom: '',
  dateTo: '',
  hideInvalid: false,
  discountclub: 'any',
  seaside: 'any',
  orderBy: null,
  orderDirection: 'asc',
  infoDensity: 'full',
  size: 8,
  page: 1,
  fusion: { rrfVectorWeight: null, semanticFloor: null, tsvectorFloor: null },
};

export const isSearching = (query: PreviewQuery): boolean => query.search.trim() !== '';

/** The `dates` parameter: one range; a date alone stands for that day. */
export function datesOf(query: PreviewQuery): string | undefined {
  const from = query.dateFrom || query.dateTo;
  const to = query.dateTo || query.dateFrom;
  if (!from) return undefined;
  return from <= to ? `${from}_${to}` : `${to}_${from}`;
}

/** The fields whose counts list the page's destination and category choices (D-81's facets). */
export const CHOICE_FACETS = 'category,destination';

const triState = (value: TriState): boolean | undefined => (value === 'any' ? undefined : value === 'yes');

/**
 * The query of `GET /travels` for the controls. A search asks for `explain` (the cards' "why this
 * rank") and takes the fusion knobs that were moved; without one, the order applies instead. Every
 * listing asks for the category and destination facets: the choices are listed from them.
 */
export function toTravelsQuery(query: PreviewQuery): TravelsQuery & { infoDensity: InfoDensity } {
  const searching = isSearching(query);
  const travels: TravelsQuery & { infoDensity: InfoDensity } = {
    infoDensity: query.infoDensity,
    page: query.page,
    size: query.size,
    facets: CHOICE_FACETS,
  };
  if (searching) {
    travels.search = query.search;
    travels.explain = true;
    for (const knob of FUSION_KNOBS) {
      const value = query.fusion[knob];
      if (value !== null) travels[knob] = value;
    }
  } else if (query.orderBy) {
    travels.orderBy = query.orderBy;
    travels.orderDirection = query.orderDirection;
  }
  if (query.destination) travels.destination = query.destination;
  if (query.categories.length > 0) travels.category = query.categories.join(',');
  const dates = datesOf(query);
  if (dates) travels.dates = dates;
  if (query.hideInvalid) travels.hide_invalid = true;
  const discountclub = triState(query.discountclub);
  if (discountclub !== undefined) travels.discountclub = discountclub;
  const seaside = triState(query.seaside);
  if (seaside !== undefined) travels.seaside = seaside;
  return travels;
}

/** `GET /travels?…` as the client sends it: one `name=value` per parameter, in the query's order. */
export function toSearchParams(travels: TravelsQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(travels)) {
    if (value !== undefined) params.set(name, String(value));
  }
  return params;
}

/**
 * The page's own address for the controls (`/preview?search=…`): `GET /travels`'s parameters,
 * those at their default left out, so a preview can be bookmarked and shared.
 */
export function toPageParams(query: PreviewQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.search) params.set('search', query.search);
  if (query.destination) params.set('destination', query.destination);
  if (query.categories.length > 0) params.set('category', query.categories.join(','));
  const dates = datesOf(query);
  if (dates) params.set('dates', dates);
  if (query.hideInvalid) params.set('hide_invalid', 'true');
  if (query.discountclub !== 'any') params.set('discountclub', String(query.discountclub === 'yes'));
  if (query.seaside !== 'any') params.set('seaside', String(query.seaside === 'yes'));
  if (query.orderBy) params.set('orderBy', query.orderBy);
  if (query.orderDirection !== 'asc') params.set('orderDirection', query.orderDirection);
  if (query.infoDensity !== EMPTY_QUERY.infoDensity) params.set('infoDensity', query.infoDensity);
  if (query.size !== EMPTY_QUERY.size) params.set('size', String(query.size));
  if (query.page !== 1) params.set('page', String(query.page));
  for (const knob of FUSION_KNOBS) {
    const value = query.fusion[knob];
    if (value !== null) params.set(knob, String(value));
  }
  return params;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((candidate) => candidate === value);

function tristateOf(value: string | null): TriState {
  if (value === 'true') return 'yes';
  if (value === 'false') return 'no';
  return 'any';
}

function numberIn(value: string | null, min: number, max: number): number | null {
  if (value === null || value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) && number >= min && number <= max ? number : null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The controls from the page's address; a value the page does not offer falls back to its default. */
export function fromPageParams(params: URLSearchParams): PreviewQuery {
  const [dateFrom = '', dateTo = ''] = (params.get('dates')?.split(',')[0] ?? '').split('_');
  return {
    search: params.get('search') ?? '',
    destination: /^[A-Za-z]{2}$/.test(params.get('destination') ?? '')
      ? params.get('destination')!.toUpperCase()
      : '',
    categories: (params.get('category') ?? '')
      .split(',')
      .map((slug) => slug.trim())
      .filter(Boolean),
    dateFrom: DATE.test(dateFrom) ? dateFrom : '',
    dateTo: DATE.test(dateTo) ? dateTo : '',
    hideInvalid: params.get('hide_invalid') === 'true',
    discountclub: tristateOf(params.get('discountclub')),
    seaside: tristateOf(params.get('seaside')),
    orderBy: oneOf(ORDERS, params.get('orderBy')) ?? null,
    orderDirection: params.get('orderDirection') === 'desc' ? 'desc' : 'asc',
    infoDensity: oneOf(DENSITIES, params.get('infoDensity')) ?? EMPTY_QUERY.infoDensity,
    size: PAGE_SIZES.find((size) => String(size) === params.get('size')) ?? EMPTY_QUERY.size,
    page: Math.floor(numberIn(params.get('page'), 1, 1_000_000) ?? 1),
    fusion: {
      rrfVectorWeight: numberIn(params.get('rrfVectorWeight'), 0, 1),
      semanticFloor: numberIn(params.get('semanticFloor'), 0, 1),
      tsvectorFloor: numberIn(params.get('tsvectorFloor'), 0, Number.MAX_VALUE),
    },
  };
}
