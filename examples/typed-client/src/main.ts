// A client app of both local services (`pnpm start`) through the typed client: signs in, reads the
// signed-in user, lists tours (a super-admin's: an ordinary account is told no), searches, signs
// out. Run it with `EXAMPLE_PASSWORD=<password> pnpm --filter typed-client-example start`.
import { createBackendClient, createSearchClient, isApiError } from '@rt/client';

const backendUrl = process.env.BACKEND_URL ?? 'http://localhost:3000/api';
const searchUrl = process.env.SEARCH_URL ?? 'http://localhost:3001';
const email = process.env.EXAMPLE_EMAIL ?? 'admin@example.com';
const password = process.env.EXAMPLE_PASSWORD;
if (!password) {
  console.error('Set EXAMPLE_PASSWORD (and EXAMPLE_EMAIL, admin@example.com by default) to sign in.');
  process.exit(2);
}

// Every signed-in user holds the traveller hat; a call may name another (`hat`).
const api = createBackendClient({ baseUrl: backendUrl, hat: 'traveller' });
await api.signIn({ email, password, device_name: 'typed client example' }); // keeps the token
const user = await api.GET('/user');
console.log(`signed in as ${user.email}${user.is_super_admin ? ' (super-admin)' : ''}`);

try {
  const { data: tours, meta } = await api.GET('/tour', {
    params: { query: { per_page: 5 } },
    hat: 'super-admin',
  });
  console.log(`${meta.total} tours; the newest: ${tours.map((tour) => tour.name).join(', ')}`);
  for await (const organization of api.paginate('/organizations', { hat: 'super-admin' })) {
    console.log(`organization ${organization.name}`); // fetched 100 per page
  }
  await api.GET('/tour/{id}', {
    params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
    hat: 'super-admin',
  });
} catch (error) {
  // Every error answer is an ApiError: an ordinary account gets 403 here, an unknown tour 404.
  if (!isApiError(error)) throw error;
  console.log(`${error.status} ${error.body.error}`);
}
await api.signOut(); // forgets the token even when the server cannot be reached

const search = createSearchClient({ baseUrl: searchUrl });
const { totalRecords, records } = await search.travels({
  search: 'lake',
  destination: 'CH',
  infoDensity: 'card',
});
console.log(
  `${totalRecords} travels for "lake" in CH; first: ${records.map((travel) => travel.name).join(', ')}`,
);
