import { dtoInputsOf, NAMED_FIELD_STYLE, styleProblems, walkDtoFields } from '@rt/errors';
import type { SignedIn } from './factories';
import { createTestAppAsSuperAdmin, TestApp } from './test-app';

/**
 * One voice for errors (docs/decisions.md D-74, docs/backend-api.md "Errors"): every field of
 * every request DTO the backend validates, given wrong values, answers one message per field in
 * the style "The first name field …", ending with a full stop. The DTOs and their fields are read
 * from the running app, so a new one is covered without being listed here.
 */
describe('the error style of the backend', () => {
  let t: TestApp;
  let admin: ReturnType<SignedIn['as']>;
  beforeAll(async () => {
    ({ t, asAdmin: admin } = await createTestAppAsSuperAdmin());
  });
  afterAll(() => t.close());

  it('reaches the bodies and queries of the routes', () => {
    const inputs = dtoInputsOf(t.app);
    const names = inputs.map(({ route, kind }) => `${route} ${kind}`);
    // A walk that found nothing would pass vacuously: it must see the DTOs we know of.
    expect(names).toEqual(
      expect.arrayContaining([
        'ToursController.list query',
        'ToursController.create body',
        'SessionsController.login body',
      ]),
    );
    expect(inputs.length).toBeGreaterThanOrEqual(39);
  });

  it('every field of every DTO refuses wrong values with one message in the style', async () => {
    const walk = await walkDtoFields(t.app, NAMED_FIELD_STYLE);
    expect(walk.fields.length).toBeGreaterThan(150);
    expect(walk.unrefused).toEqual([]);
    expect(walk.problems).toEqual([]);
  });

  it.each([
    ['per_page=abc', 'per_page', 'The per page field must be an integer.'],
    ['per_page=0', 'per_page', 'The per page field must be at least 1.'],
    ['page=1000001', 'page', 'The page field must not be greater than 1000000.'],
    ['page=1&page=2', 'page', 'The page field must be given once; it was repeated.'],
  ])('a list answers ?%s with one message on the field', async (query, field, message) => {
    const res = await admin.get(`/tour?${query}`).expect(422);
    expect(res.body).toEqual({ message, errors: { [field]: [message] } });
    expect(styleProblems(res.body, NAMED_FIELD_STYLE)).toEqual([]);
  });

  it('the code search answers a repeated or over-long search with one message', async () => {
    const repeated = await admin.get('/tour?search=a&search=b').expect(422);
    expect(repeated.body.errors).toEqual({
      search: ['The search field must be given once; it was repeated.'],
    });
    const batch = await admin.get('/activation-codes/batches?batch_number=abc').expect(422);
    expect(batch.body.errors).toEqual({ batch_number: ['The batch number field must be an integer.'] });
  });

  describe('the route is known before the body is read (D-74)', () => {
    it('an unknown path with a malformed JSON body is a 404', async () => {
      const res = await t.http
        .post('/api/nope')
        .set('Content-Type', 'application/json')
        .send('{"name": ')
        .expect(404);
      expect(res.body).toEqual({ message: 'Not found.', error: 'not_found' });
    });

    it('a known path with a wrong method and a body of another type is a 405 with Allow', async () => {
      const res = await t.http.put('/api/login').set('Content-Type', 'text/plain').send('hello').expect(405);
      expect(res.body).toEqual({ message: 'Method not allowed.', error: 'method_not_allowed' });
      expect(res.headers.allow).toBe('POST');
    });

    it('a known path with a wrong method and a body over the limit is a 405', async () => {
      const res = await t.http
        .patch('/api/login')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) }))
        .expect(405);
      expect(res.body.error).toBe('method_not_allowed');
    });

    it('a known path whose parameter is not valid percent-encoded UTF-8 is still a 400, body or not', async () => {
      const put = await admin.put('/tour/activity/a%ED%B0%80b').send({ name: 'x' });
      const patch = await admin.patch('/activation-codes/batches/%ED%A0%80').send({ internal_note: null });
      for (const res of [put, patch]) expect([res.status, res.body.error]).toEqual([400, 'bad_request']);
      const wrongMethod = await t.http.post('/api/tour/activity/a%ED%B0%80b').send({ name: 'x' }).expect(405);
      expect(wrongMethod.body.error).toBe('method_not_allowed');
    });

    it('the route that takes the method still reads the body', async () => {
      const res = await t.http
        .post('/api/login')
        .set('Content-Type', 'application/json')
        .send('{"email": ')
        .expect(400);
      expect(res.body.error).toBe('malformed_json');
    });
  });
});
