import { dtoInputsOf, type FieldStyle, NAMED_FIELD_STYLE, styleProblems, walkDtoFields } from '@rt/errors';
import { buildContractDocument } from '../src/contract/contract-document';
import type { SignedIn } from './factories';
import { createTestAppAsSuperAdmin, TestApp } from './test-app';

/** The viewing header is named as clients send it: "The X-Viewing-As header is required: …". */
const VIEWING_HEADER_STYLE: FieldStyle = { subject: () => 'The X-Viewing-As header' };

/**
 * One voice for errors (docs/decisions.md D-74, docs/backend-api.md "Errors"): every field of
 * every request DTO the backend validates, given wrong values, answers one message per field in
 * the style "The first name field …", ending with a full stop; every route that takes the viewing
 * header answers a missing or malformed one under `x-viewing-as`, naming the header as sent. The
 * DTOs, their fields and the routes are read from the running app, so a new one is covered without
 * being listed here.
 */
describe('the error style of the backend', () => {
  let t: TestApp;
  let signedIn: SignedIn;
  let admin: ReturnType<SignedIn['as']>;
  beforeAll(async () => {
    ({ t, admin: signedIn, asAdmin: admin } = await createTestAppAsSuperAdmin());
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

  it('every route that takes X-Viewing-As refuses a missing, malformed or repeated hat in the style', async () => {
    const contract = buildContractDocument(t.app);
    const someId = '00000000-0000-4000-8000-000000000000';
    const problems: string[] = [];
    let routes = 0;
    for (const [path, item] of Object.entries(contract.paths)) {
      for (const [method, operation] of Object.entries(item) as [
        string,
        { parameters?: { name?: string }[] },
      ][]) {
        if (!operation.parameters?.some((parameter) => parameter.name === 'X-Viewing-As')) continue;
        routes += 1;
        const url = `/api${path.replace(/\{[^}]+\}/g, someId)}`;
        // The hat is checked before the path id, the query and the body (docs/decisions.md D-23);
        // a header sent twice reaches the app joined by a comma.
        for (const hat of [undefined, 'nobody', 'super-admin, traveller']) {
          const call = signedIn.agent[method as 'get' | 'post' | 'put' | 'patch' | 'delete'](url);
          const res = hat === undefined ? await call : await call.set('X-Viewing-As', hat);
          const shown = `${method.toUpperCase()} ${path} with ${JSON.stringify(hat)}`;
          if (res.status !== 422) problems.push(`${shown}: ${res.status}`);
          else if (Object.keys(res.body.errors).join() !== 'x-viewing-as') {
            problems.push(`${shown}: errors on ${Object.keys(res.body.errors).join()}`);
          } else {
            problems.push(
              ...styleProblems(res.body, VIEWING_HEADER_STYLE).map((problem) => `${shown}: ${problem}`),
            );
          }
        }
      }
    }
    expect(routes).toBeGreaterThanOrEqual(40);
    expect(problems).toEqual([]);
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
