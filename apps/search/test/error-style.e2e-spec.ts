import { dtoInputsOf, styleProblems, walkDtoFields, WIRE_NAME_STYLE } from '@rt/errors';
import { buildOpenApiDocument } from '../src/http/docs/api-docs';
import { MAX_CATEGORIES } from '../src/http/travels/dto/travels-query.dto';
import { createTestApp, TestApp } from './test-app';

interface QueryParameter {
  name: string;
  in: string;
}

/** What the contract says of a 422: its schema's examples, and the answer of `GET /travels`. */
interface ValidationErrorContract {
  info: { description: string };
  components: { schemas: Record<string, { properties: Record<string, { examples?: unknown[] }> }> };
  paths: {
    '/travels': {
      get: {
        responses: {
          422: { description: string; content: { 'application/json': { schema: { $ref: string } } } };
        };
      };
    };
  };
}

/**
 * One voice for errors (docs/decisions.md D-74, docs/search-api.md "Errors"): every parameter the
 * service validates, given wrong values, answers one message per parameter that begins with the
 * parameter's name as clients send it and ends with a full stop ("size must be an integer from 1
 * to 100."). The DTOs come from the running app and the parameters from its OpenAPI document, so a
 * new one is covered without being listed here; the examples that document shows are held to the
 * answers they stand for.
 */
describe('the error style of the search service', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('every field of every DTO refuses wrong values with one message in the style', async () => {
    expect(dtoInputsOf(t.app).map(({ route, kind }) => `${route} ${kind}`)).toContain(
      'TravelsController.list query',
    );
    const walk = await walkDtoFields(t.app, WIRE_NAME_STYLE);
    expect(walk.fields.length).toBeGreaterThanOrEqual(16);
    expect(walk.unrefused).toEqual([]);
    expect(walk.problems).toEqual([]);
  });

  /** Wrong values as raw query text: repeated, a list, nested, not UTF-8, NUL, not a value of any parameter. */
  const WRONG_RAW_VALUES = (name: string): string[] => [
    `${name}=3&${name}=4`,
    `${name}[]=3`,
    `${name}[a]=3`,
    `${name}=%FF`,
    `${name}=a%00b`,
    `${name}=-1`,
    `${name}=${'x'.repeat(600)}`,
  ];

  it('every query parameter of the contract answers wrong values in the style, over HTTP', async () => {
    const document = buildOpenApiDocument(t.app, 'test') as unknown as {
      paths: Record<string, Record<string, { parameters?: QueryParameter[] }>>;
    };
    const problems: string[] = [];
    let checked = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method !== 'get') continue;
        for (const { name } of (operation.parameters ?? []).filter((parameter) => parameter.in === 'query')) {
          for (const query of WRONG_RAW_VALUES(name)) {
            const res = await t.http.get(`${path}?${query}`);
            checked += 1;
            if (res.status !== 422) {
              // Some values are fine for some parameters (a long search is refused, `-1` is a search).
              if (res.status !== 200) problems.push(`${path}?${query.slice(0, 40)}: ${res.status}`);
              continue;
            }
            for (const problem of styleProblems(res.body, WIRE_NAME_STYLE)) {
              problems.push(`${path}?${query.slice(0, 40)}: ${problem}`);
            }
            if (!(name in res.body.errors)) problems.push(`${path}?${query.slice(0, 40)}: ${name} not named`);
          }
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(16 * WRONG_RAW_VALUES('x').length);
    expect(problems).toEqual([]);
  });

  it.each([
    ['size=3&size=4', 'size', 'size must be given once; it was repeated.'],
    ['search=a&search=b', 'search', 'search must be given once; it was repeated.'],
    ['hide_invalid=1&hide_invalid=0', 'hide_invalid', 'hide_invalid must be given once; it was repeated.'],
    ['size[]=3', 'size', 'size must be a single value, not a list.'],
    ['size[a]=3', 'size', 'size must be a single value, not a nested one.'],
    ['size=101', 'size', 'size must be an integer from 1 to 100.'],
    ['search=a%00b', 'search', 'search must not contain NUL characters.'],
    ['category=%FF', 'category', 'category must be valid UTF-8 text.'],
  ])('?%s → %s', async (query, field, message) => {
    const res = await t.http.get(`/travels?${query}`).expect(422);
    expect(res.body).toEqual({ message, errors: { [field]: [message] } });
  });

  it("the contract's 422 example is what the service answers, in its style", async () => {
    const document = buildOpenApiDocument(t.app, 'test') as unknown as ValidationErrorContract;
    const { message, errors } = document.components.schemas.ValidationErrorResponseDto.properties;
    const example = { message: message.examples?.[0], errors: errors.examples?.[0] };
    expect(styleProblems(example, WIRE_NAME_STYLE)).toEqual([]);
    expect((await t.http.get('/travels?size=101').expect(422)).body).toEqual(example);
    expect(document.info.description).toContain(`("${example.message}")`);

    const invalid = document.paths['/travels'].get.responses['422'];
    expect(invalid.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ValidationErrorResponseDto',
    );
    const quoted = /\("([^"]+)"\)/.exec(invalid.description)?.[1];
    expect((await t.http.get('/travels?size=3&size=4').expect(422)).body.errors).toEqual({ size: [quoted] });
  });

  it(`category with more than ${MAX_CATEGORIES} slugs speaks like dates`, async () => {
    const slugs = Array.from({ length: MAX_CATEGORIES + 1 }, (_, i) => `c${i}`).join(',');
    const res = await t.http.get(`/travels?category=${slugs}`).expect(422);
    const message = `category accepts at most ${MAX_CATEGORIES} slugs.`;
    expect(res.body).toEqual({ message, errors: { category: [message] } });
    const ranges = Array.from({ length: 51 }, () => '2027-01-01_2027-01-02').join(',');
    expect((await t.http.get(`/travels?dates=${ranges}`).expect(422)).body.errors).toEqual({
      dates: ['dates accepts at most 50 ranges.'],
    });
  });

  describe('the route is known before the body is read (D-74)', () => {
    it('a known path with a wrong method and a body of another type is a 405 with Allow', async () => {
      const res = await t.http.post('/travels').set('Content-Type', 'text/plain').send('hello').expect(405);
      expect(res.body).toEqual({ message: 'Method not allowed.', error: 'method_not_allowed' });
      expect(res.headers.allow).toBe('GET, HEAD');
    });

    it('an unknown path with a malformed JSON body is a 404', async () => {
      const res = await t.http
        .post('/nope')
        .set('Content-Type', 'application/json')
        .send('{"a": ')
        .expect(404);
      expect(res.body).toEqual({ message: 'Not found.', error: 'not_found' });
    });

    it('the route that takes the method still reads the body', async () => {
      const res = await t.http
        .get('/travels')
        .set('Content-Type', 'application/json')
        .send('{"a": ')
        .expect(400);
      expect(res.body.error).toBe('malformed_json');
    });
  });
});
