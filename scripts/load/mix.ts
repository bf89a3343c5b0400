import { DEMO_CATEGORY_SLUGS } from '@rt/contracts';
import type { RequestKind, RequestSpec } from './driver';
import type { LoadFixture } from './prepare';

/** Relative weights of the request kinds (per 100 requests); see `requestMix`. */
export const MIX_WEIGHTS = {
  login: 1,
  'organizations list': 6,
  'organization (manager)': 4,
  'codes list': 10,
  'codes search': 7,
  'codes export (CSV)': 1,
  'tour read': 4,
  'tour edit': 4,
  'step edit': 3,
  'steps reorder': 1,
  'image fetch': 16,
  'travels filtered': 24,
  'travels text search': 19,
} as const;

export type KindName = keyof typeof MIX_WEIGHTS;

const DESTINATIONS = [
  'CH',
  'FR',
  'IT',
  'ES',
  'AT',
  'PT',
  'GR',
  'NO',
  'IS',
  'MA',
  'JP',
  'TH',
  'CA',
  'PE',
  'ZA',
  'NZ',
];
const CATEGORIES = DEMO_CATEGORY_SLUGS;
const DATE_RANGES = [
  '2026-12-01_2026-12-31',
  '2027-01-01_2027-02-28',
  '2027-03-15_2027-04-30',
  '2027-06-01_2027-08-31',
  '2027-07-01_2027-07-15,2027-09-01_2027-09-30',
];
const ORDER_BY = ['rating', 'departure', 'duration'];
const DENSITIES = ['card', 'card', 'card', 'search', 'min', 'full'];
/** What travellers type: themes, places, several languages, a few typos and compounds. */
const QUERIES = [
  'ski zermatt',
  'beach holidays greece',
  'cooking classes',
  'wellness spa weekend',
  'safari kenya',
  'city break lisbon',
  'road trip norway fjords',
  'croisière méditerranée',
  'randonnée montagne',
  'Skiferien',
  'Wanderurlaub Österreich',
  'thalasso',
  'family holidays with kids',
  'northern lights iceland',
  'vélo lac',
  'train journey japan',
  'wine tasting tuscany',
  'marrakech desert',
  'weekend à paris',
  'scuba diving thailand',
  'zurich',
  'barcelona tapas',
  'hiking dolomites',
  'gastronomie lyon',
  'kruger wildlife',
  'patagonia trek',
  'santorini sunset',
  'croatia islands sailing',
  'amsterdam canals',
  'helsinki sauna',
  'machu picchu',
  'Städtereise Prag',
  'vacances plage portugal',
  'cycling tour',
  'romantic getaway',
  'adventure new zealand',
  'culture kyoto temples',
  'skiing in the alps',
  'beach resort bali',
  'walrus watching svalbard',
];

const pickOf =
  (random: () => number) =>
  <T>(items: readonly T[]): T =>
    items[Math.floor(random() * items.length)];

/** A shuffled copy (Fisher–Yates). */
function shuffled<T>(random: () => number, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) search.append(key, String(value));
  return search.toString();
};

/** A `GET /travels` of the search service, its query drawn anew for each request (in `draw`'s order). */
const searchTravels = (
  draw: (
    random: () => number,
    pick: ReturnType<typeof pickOf>,
  ) => Record<string, string | number | undefined>,
): Omit<RequestKind, 'name' | 'weight'> => ({
  service: 'search',
  build: (random) => ({ method: 'GET', path: `/travels?${query(draw(random, pickOf(random)))}` }),
});

/**
 * The request kinds of the load run, built on the prepared data. Authenticated kinds take the
 * super-admin's tokens in turn (several devices), the manager kind its own hat.
 */
export function requestMix(fixture: LoadFixture): RequestKind[] {
  const users = [fixture.admin, ...fixture.managers];
  const codePages = Math.max(1, Math.ceil((fixture.codes * 0.9) / 25));
  const organizationPages = Math.max(1, Math.ceil(fixture.organizations / 25));
  let turn = 0;
  const asAdmin = (): Record<string, string> => ({
    Authorization: `Bearer ${fixture.adminTokens[turn++ % fixture.adminTokens.length]}`,
    'X-Viewing-As': 'super-admin',
  });

  const builders: Record<
    KindName,
    { service: RequestKind['service']; build: (random: () => number) => RequestSpec }
  > = {
    login: {
      service: 'backend',
      build: (random) => {
        const user = pickOf(random)(users);
        return {
          method: 'POST',
          path: '/api/login',
          body: { email: user.email, password: user.password, device_name: 'load run' },
        };
      },
    },
    'organizations list': {
      service: 'backend',
      build: (random) => ({
        method: 'GET',
        path: `/api/organizations?${query({
          page: 1 + Math.floor(random() * organizationPages),
          per_page: random() < 0.5 ? 25 : 100,
          type: random() < 0.3 ? pickOf(random)(['reseller', 'region']) : undefined,
        })}`,
        headers: asAdmin(),
      }),
    },
    'organization (manager)': {
      service: 'backend',
      build: (random) => {
        const manager = pickOf(random)(fixture.managerTokens);
        return {
          method: 'GET',
          path: '/api/organization',
          headers: { Authorization: `Bearer ${manager.token}`, 'X-Viewing-As': manager.hat },
        };
      },
    },
    'codes list': {
      service: 'backend',
      build: (random) => {
        const filtered = random() < 0.3;
        return {
          method: 'GET',
          path: `/api/activation-codes?${query({
            organisation_id: random() < 0.8 ? fixture.codeOrganizationId : undefined,
            'status[]': filtered ? pickOf(random)(['in stock', 'cancelled']) : undefined,
            page: filtered ? 1 : 1 + Math.floor(Math.pow(random(), 2) * codePages),
            per_page: random() < 0.7 ? 25 : 100,
          })}`,
          headers: asAdmin(),
        };
      },
    },
    'codes search': {
      service: 'backend',
      build: (random) => ({
        method: 'GET',
        path: `/api/activation-codes?${query({
          search: pickOf(random)(fixture.codeFragments),
          organisation_id: random() < 0.5 ? fixture.codeOrganizationId : undefined,
          per_page: 25,
        })}`,
        headers: asAdmin(),
      }),
    },
    'codes export (CSV)': {
      service: 'backend',
      build: () => ({
        method: 'GET',
        path: `/api/activation-codes/export?${query({ 'organisation_id[]': fixture.codeOrganizationId })}`,
        headers: { ...asAdmin(), Accept: 'text/csv' },
      }),
    },
    'tour read': {
      service: 'backend',
      build: (random) => ({
        method: 'GET',
        path: `/api/tour/${pickOf(random)(fixture.tours).id}`,
        headers: asAdmin(),
      }),
    },
    'tour edit': {
      service: 'backend',
      build: (random) => {
        const n = Math.floor(random() * 1000);
        return {
          method: 'PUT',
          path: `/api/tour/${pickOf(random)(fixture.tours).id}`,
          headers: asAdmin(),
          body:
            random() < 0.7
              ? { name: `Tour edited ${n}`, color: `#${(n * 4099).toString(16).padStart(6, '0').slice(-6)}` }
              : { color: '#2980B9' },
        };
      },
    },
    'step edit': {
      service: 'backend',
      build: (random) => {
        const tour = pickOf(random)(fixture.tours);
        const hour = String(7 + Math.floor(random() * 12)).padStart(2, '0');
        return {
          method: 'PUT',
          path: `/api/tour/${tour.id}/steps/${pickOf(random)(tour.stepIds)}`,
          headers: asAdmin(),
          body: {
            time: `${hour}:${random() < 0.5 ? '00' : '30'}`,
            day_number: 1 + Math.floor(random() * 4),
            // Now and then the plans too (replaced as a whole: plan A first).
            ...(random() < 0.3
              ? { activity_ids: shuffled(random, fixture.activityIds).slice(0, 1 + Math.floor(random() * 3)) }
              : {}),
          },
        };
      },
    },
    'steps reorder': {
      service: 'backend',
      build: (random) => {
        const tour = pickOf(random)(fixture.tours);
        return {
          method: 'PUT',
          path: `/api/tour/${tour.id}/steps/reorder`,
          headers: asAdmin(),
          body: { step_ids: shuffled(random, tour.stepIds) },
        };
      },
    },
    'image fetch': {
      service: 'backend',
      build: (random) => ({
        method: 'GET',
        path: pickOf(random)(fixture.imagePaths),
        headers: { Accept: '*/*' },
      }),
    },
    'travels filtered': searchTravels((random, pick) => ({
      destination: random() < 0.4 ? pick(DESTINATIONS) : undefined,
      category:
        random() < 0.5
          ? [pick(CATEGORIES), ...(random() < 0.3 ? [pick(CATEGORIES)] : [])].join(',')
          : undefined,
      dates: random() < 0.3 ? pick(DATE_RANGES) : undefined,
      hide_invalid: random() < 0.5 ? 'true' : undefined,
      discountclub: random() < 0.15 ? pick(['true', 'false']) : undefined,
      seaside: random() < 0.15 ? pick(['true', 'false']) : undefined,
      orderBy: random() < 0.6 ? pick(ORDER_BY) : undefined,
      orderDirection: random() < 0.3 ? 'desc' : undefined,
      page: random() < 0.75 ? 1 : 2 + Math.floor(random() * 4),
      size: pick([8, 8, 12, 24]),
      infoDensity: pick(DENSITIES),
    })),
    'travels text search': searchTravels((random, pick) => ({
      search: pick(QUERIES),
      destination: random() < 0.15 ? pick(DESTINATIONS) : undefined,
      category: random() < 0.15 ? pick(CATEGORIES) : undefined,
      hide_invalid: random() < 0.3 ? 'true' : undefined,
      page: random() < 0.85 ? 1 : 2,
      size: pick([8, 8, 12]),
      infoDensity: pick(DENSITIES),
    })),
  };

  return (Object.keys(MIX_WEIGHTS) as KindName[]).map((name) => ({
    name,
    weight: MIX_WEIGHTS[name],
    ...builders[name],
  }));
}
