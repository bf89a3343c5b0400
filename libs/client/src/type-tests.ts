/**
 * Type tests of the clients, checked by the root `pnpm typecheck` (never run, never bundled):
 * each `@ts-expect-error` line must fail to compile, so if a misspelt field, a wrong hat or a
 * wrong path ever compiled, the directive itself would be reported as unused and the check fails.
 */
import {
  ApiError,
  createBackendClient,
  createSearchClient,
  isApiError,
  type Hat,
  type SearchSchemas,
} from './index';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <T extends true>(): T | undefined => undefined;

export async function backendTypeTests(): Promise<void> {
  const api = createBackendClient({ baseUrl: 'http://localhost:3000/api', hat: 'super-admin' });

  // Hats: the three forms of docs/decisions.md D-22, nothing else.
  createBackendClient({ baseUrl: '/api', hat: 'traveller' });
  createBackendClient({ baseUrl: '/api', hat: 'organization:3f0c6a5e-6b1d-4c1e-9d0a-0e8f5b2d4c11' });
  // @ts-expect-error a misspelt hat
  createBackendClient({ baseUrl: '/api', hat: 'superadmin' });
  // @ts-expect-error an organization hat without its prefix
  api.setHat('3f0c6a5e-6b1d-4c1e-9d0a-0e8f5b2d4c11');
  // @ts-expect-error a wrong hat on one call
  await api.GET('/organizations', { hat: 'admin' });
  const hat: Hat = 'organization:x';
  await api.GET('/organization', { hat });

  // Bodies: every field is checked.
  await api.signIn({ email: 'a@example.com', password: 'correct horse battery', device_name: 'phone' });
  // @ts-expect-error a misspelt field (and so `password` is missing)
  await api.signIn({ email: 'a@example.com', pasword: 'correct horse battery', device_name: 'phone' });
  await api.POST('/tour', { body: { name: 'Alps loop', color: '#1A2B3C', partner_organization_id: 'id' } });
  await api.POST('/tour', {
    body: {
      name: 'Alps loop',
      color: '#1A2B3C',
      partner_organization_id: 'id',
      // @ts-expect-error a misspelt optional field
      region_organisation_id: null,
    },
  });
  // @ts-expect-error a body is required
  await api.POST('/tour');
  await api.PUT('/activation-codes/status', { body: { ids: ['a'], status: 'cancelled' } });
  // @ts-expect-error a status that is not a target of the bulk move
  await api.PUT('/activation-codes/status', { body: { ids: ['a'], status: 'used' } });

  // Query and path parameters.
  await api.GET('/organizations', { params: { query: { type: 'region', per_page: 100 } } });
  // @ts-expect-error a misspelt query parameter
  await api.GET('/organizations', { params: { query: { per_pag: 100 } } });
  // @ts-expect-error an unknown organization type
  await api.GET('/organizations', { params: { query: { type: 'partner' } } });
  await api.GET('/tour/{id}', { params: { path: { id: 'x' } } });
  // @ts-expect-error the path parameter is required
  await api.GET('/tour/{id}');
  // @ts-expect-error a path that does not exist
  await api.GET('/tours');
  // @ts-expect-error a method the path does not have
  await api.DELETE('/organizations');

  // Answers are typed, never undefined.
  const tour = await api.GET('/tour/{id}', { params: { path: { id: 'x' } } });
  expectType<Equal<typeof tour.status, 'pending' | 'active' | 'archived'>>();
  // @ts-expect-error not a field of the tour
  void tour.traveller_count;
  const _deleted = await api.DELETE('/tour/{id}', { params: { path: { id: 'x' } } });
  expectType<Equal<typeof _deleted, void>>();
  const _moved = await api.PUT('/activation-codes/status', { body: { ids: ['a'], status: 'reimbursed' } });
  expectType<Equal<(typeof _moved.skipped)[number]['id'], string>>();

  // Pagination: list paths only, items typed.
  for await (const _organization of api.paginate('/organizations', {
    params: { query: { type: 'reseller' } },
  })) {
    expectType<Equal<typeof _organization.commission, string>>();
  }
  // @ts-expect-error not a list
  api.paginate('/organization');

  // Errors: discriminated on `error`.
  try {
    await api.GET('/user');
  } catch (e) {
    if (e instanceof ApiError) {
      const body = e.body;
      switch (body.error) {
        case 'validation_failed':
          expectType<Equal<typeof body.errors, Record<string, string[]>>>();
          if (body.reason === 'already_claimed') break;
          // @ts-expect-error not a rejection code of the backend
          if (body.reason === 'already_claimd') break;
          break;
        case 'hat_not_held':
          // @ts-expect-error only 422 answers carry a field map
          void body.errors;
          break;
        case 'unexpected_response':
          void body.text;
          break;
      }
      // @ts-expect-error not an error code
      if (e.is('hat_not_hold')) return;
    }
    if (isApiError(e, 'validation_failed')) void e.body.errors;
  }
}

export async function searchTypeTests(): Promise<void> {
  const search = createSearchClient({ baseUrl: 'http://localhost:3001' });
  const cards = await search.travels({ search: 'lake', infoDensity: 'card', discountclub: true });
  expectType<Equal<(typeof cards.records)[number]['rating'], number | null>>();
  // @ts-expect-error a card has no departure dates
  void cards.records[0].departure_dates;
  // @ts-expect-error a misspelt parameter
  await search.travels({ serach: 'lake' });
  // @ts-expect-error not a density
  await search.travels({ infoDensity: 'compact' });
  const faceted = await search.travels({ category: 'ski', facets: 'category,destination' });
  void faceted.facets;
  expectType<
    Equal<
      NonNullable<typeof faceted.facets>['counts']['category'],
      SearchSchemas['FacetFieldDto'] | undefined
    >
  >();
  expectType<Equal<NonNullable<typeof faceted.facets>['unknownFilterValues']['category'], string[]>>();
  await search.GET('/travels', { params: { query: { orderBy: 'rating', size: 20 } } });
  // @ts-expect-error not an order
  await search.GET('/travels', { params: { query: { orderBy: 'price' } } });
}
