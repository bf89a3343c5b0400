import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { ContractValidator } from './contract-validator';
import { operationSeed } from './fuzz-runner';
import { documentedResponse, listOperations, type OpenApiDocument } from './openapi';
import { DATE_EXTREMES, DATE_TIME_EXTREMES } from './payloads';
import {
  dateExtremeRequests,
  encodeMultipart,
  encodeUrlText,
  fillPath,
  headerText,
  RawQueryValue,
  requestArbitrary,
  serializeQuery,
  toWire,
} from './requests';
import { SchemaArbitraries } from './schema-arbitraries';
import { snapshotDifferences, snapshotSql } from './state-snapshot';

const json = (schema: object) => ({ 'application/json': { schema } });
const error = { $ref: '#/components/schemas/Error' };

const DOCUMENT: OpenApiDocument = {
  openapi: '3.1.0',
  servers: [{ url: '/api' }],
  paths: {
    '/things/{id}': {
      parameters: [{ $ref: '#/components/parameters/Id' }],
      get: {
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 50 } },
          { name: 'X-Hat', in: 'header', required: true, schema: { type: 'string', enum: ['a', 'b'] } },
        ],
        responses: {
          '200': { description: 'ok', content: json({ $ref: '#/components/schemas/Thing' }) },
          '4XX': { description: 'refused', content: json(error) },
        },
        security: [{ bearer: [] }],
      },
      put: {
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/Thing' }) },
        responses: { '204': { description: 'done' }, '422': { $ref: '#/components/responses/Invalid' } },
        security: [],
      },
    },
  },
  components: {
    parameters: {
      Id: { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
    },
    responses: { Invalid: { description: 'invalid', content: json(error) } },
    schemas: {
      Thing: {
        type: 'object',
        required: ['name', 'size'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 20 },
          size: { type: 'integer', minimum: 0, maximum: 10 },
          tags: { type: 'array', maxItems: 3, items: { type: 'string', enum: ['x', 'y'] } },
          note: { type: ['string', 'null'], maxLength: 50 },
        },
      },
      Error: {
        type: 'object',
        required: ['message', 'error'],
        properties: { message: { type: 'string' }, error: { type: 'string' } },
      },
    },
  },
};

describe('listOperations', () => {
  const [get, put] = listOperations(DOCUMENT);

  it('merges path-level parameters, resolves references and reads security', () => {
    expect(get.key).toBe('GET /things/{id}');
    expect(get.parameters.map((p) => `${p.in}:${p.name}:${p.required}`)).toEqual([
      'path:id:true',
      'query:page:false',
      'header:X-Hat:true',
    ]);
    expect(get.isPublic).toBe(false);
    expect(put.isPublic).toBe(true);
    expect(put.requestBody?.required).toBe(true);
    expect(put.responses['422'].content?.['application/json']).toEqual(error);
    expect(put.responses['204']).toEqual({});
  });

  it('finds the documented answer: exact status, then its range, then nothing', () => {
    expect(documentedResponse(get, 200)?.status).toBe('200');
    expect(documentedResponse(get, 404)?.status).toBe('4XX');
    expect(documentedResponse(get, 500)).toBeUndefined();
  });
});

describe('ContractValidator', () => {
  const validator = new ContractValidator(DOCUMENT, 'unit');
  const [get, put] = listOperations(DOCUMENT);
  const answer = (status: number, body: unknown, type = 'application/json; charset=utf-8') => ({
    status,
    headers: { 'content-type': type },
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  });

  it('accepts a body that matches its schema, references resolved', () => {
    expect(validator.check(get, answer(200, { name: 'a', size: 3, tags: ['x'] }))).toEqual([]);
    expect(validator.check(get, answer(404, { message: 'Not found.', error: 'not_found' }))).toEqual([]);
    expect(validator.check(put, { status: 204, headers: {}, body: Buffer.alloc(0) })).toEqual([]);
  });

  it('names every departure: schema, status, 5xx, media type, a body where none is documented', () => {
    const [wrongBody] = validator.check(get, answer(200, { name: 'a', size: 11 }));
    expect(wrongBody.kind).toBe('body');
    expect(wrongBody.errors).toEqual([expect.stringContaining('/size must be <= 10')]);
    expect(validator.check(put, answer(404, {})).map((p) => p.kind)).toEqual(['undocumented-status']);
    expect(validator.check(get, answer(503, {})).map((p) => p.kind)).toEqual([
      'server-error',
      'undocumented-status',
    ]);
    expect(validator.check(get, answer(200, 'a,b', 'text/csv')).map((p) => p.kind)).toEqual(['content-type']);
    expect(validator.check(get, answer(200, '{not json')).map((p) => p.kind)).toEqual(['body']);
    expect(validator.check(put, answer(204, { unexpected: true })).map((p) => p.kind)).toEqual(['body']);
  });
});

describe('wire encoding', () => {
  it('repeats keys for arrays, brackets objects, keeps raw escapes, encodes lone surrogates as WTF-8', () => {
    expect(
      serializeQuery([
        ['status[]', ['a b', 'c']],
        ['page', 2],
        ['filter', { x: '1' }],
        ['flag', null],
        ['bad', new RawQueryValue('%ZZ')],
        ['q', 'a\uD800'],
      ]),
    ).toBe('status[]=a%20b&status[]=c&page=2&filter[x]=1&flag&bad=%ZZ&q=a%ED%A0%80');
    expect(encodeUrlText('é')).toBe('%C3%A9');
  });

  it('keeps a path parameter inside its segment', () => {
    expect(fillPath('/things/{id}', { id: '../../etc/passwd' })).toBe(
      '/things/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
    );
    expect(fillPath('/things/{id}', { id: '..' })).toBe('/things/%2E%2E');
  });

  it('sends header text as a raw client would: UTF-8 bytes, no NUL or line breaks', () => {
    expect(headerText('plain')).toBe('plain');
    expect(headerText('é')).toBe('é');
    expect(headerText('😀')).toBe(Buffer.from('😀', 'utf8').toString('latin1'));
    expect(headerText('a\u0000b\r\nc')).toBe('abc');
  });

  it('writes multipart bodies, well formed or cut short', () => {
    const parts = [{ name: 'image', filename: 'a.png', contentType: 'image/png', content: 'PNG' }];
    expect(encodeMultipart(parts, 'B').toString()).toBe(
      '--B\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nPNG\r\n--B--\r\n',
    );
    expect(encodeMultipart(parts, 'B', 'truncated').toString()).not.toContain('--B--');
  });
});

describe('request generation', () => {
  const [get, put] = listOperations(DOCUMENT);
  const schemas = new SchemaArbitraries(DOCUMENT);

  it('is the same for the same seed, and another for another seed', () => {
    const sample = (seed: number) =>
      fc
        .sample(requestArbitrary(put, schemas), { seed, numRuns: 30 })
        .map((r) => toWire(r, 'PUT', put.path, '/api'));
    expect(JSON.stringify(sample(7))).toBe(JSON.stringify(sample(7)));
    expect(JSON.stringify(sample(7))).not.toBe(JSON.stringify(sample(8)));
  });

  it('tries valid requests and every kind of hostile part', () => {
    const variants = new Set(
      fc
        .sample(requestArbitrary(get, schemas), { seed: 1, numRuns: 400 })
        .map((r) => r.variant.split(' ')[0]),
    );
    expect([...variants].sort()).toEqual(
      expect.arrayContaining([
        'bad',
        'hostile',
        'malformed',
        'missing',
        'no',
        'repeated',
        'unknown',
        'valid',
      ]),
    );
    const bodies = new Set(
      fc
        .sample(requestArbitrary(put, schemas), { seed: 1, numRuns: 400 })
        .map((r) => r.variant.split(' ')[0]),
    );
    expect([...bodies]).toEqual(
      expect.arrayContaining(['hostile', 'body', 'content', 'no', 'empty', 'duplicate']),
    );
  });

  it('draws valid-ish values the schema admits (no pattern nor format here)', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const thing = DOCUMENT.components!.schemas!.Thing;
    const validate = ajv.compile(thing as object);
    const field = { operation: put, location: 'body' as const, name: '', item: false };
    for (const value of fc.sample(schemas.valid(thing, field), { seed: 3, numRuns: 200 })) {
      expect(validate(value)).toBe(true);
    }
  });

  it('draws out-of-range and wrong-typed values for a bounded integer', () => {
    const field = { operation: get, location: 'body' as const, name: 'size', item: false };
    const values = fc.sample(schemas.hostile({ type: 'integer', minimum: 0, maximum: 10 }, field), {
      seed: 5,
      numRuns: 300,
    });
    expect(values).toEqual(expect.arrayContaining([-1, 11, 1.5, null, '12']));
  });

  it('gives each operation its own seed, stable across runs', () => {
    expect(operationSeed(1, 'GET /a')).toBe(operationSeed(1, 'GET /a'));
    expect(operationSeed(1, 'GET /a')).not.toBe(operationSeed(1, 'GET /b'));
  });
});

describe('date extremes', () => {
  const DATED: OpenApiDocument = {
    openapi: '3.1.0',
    paths: {
      '/trips': {
        post: {
          parameters: [
            { name: 'on', in: 'query', schema: { type: 'string', format: 'date' } },
            { name: 'dates', in: 'query', schema: { type: 'string', examples: ['2027-03-01_2027-03-31'] } },
            { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
          ],
          requestBody: {
            required: true,
            content: json({
              type: 'object',
              required: ['starts_on', 'travellers'],
              properties: {
                starts_on: { type: 'string', format: 'date' },
                travellers: { type: 'integer', minimum: 1, maximum: 4 },
                window: {
                  type: 'object',
                  properties: { expires_at: { type: ['string', 'null'], format: 'date-time' } },
                },
              },
            }),
          },
          responses: { '201': { description: 'made' } },
        },
      },
    },
  };
  const [operation] = listOperations(DATED);
  const requests = dateExtremeRequests(operation, new SchemaArbitraries(DATED), { sampleFiles: [] }, 7);
  const sent = (variant: RegExp) => requests.filter((request) => variant.test(request.variant));

  it('gives every date query parameter each extreme, the rest of the request valid', () => {
    const on = sent(/^date extreme query on /);
    expect(on.map((request) => request.query.find(([name]) => name === 'on')?.[1])).toEqual(DATE_EXTREMES);
    for (const request of on) {
      expect(request.body).toMatchObject({ kind: 'json', value: { starts_on: expect.any(String) } });
      expect(request.auth).toBe('default');
    }
  });

  it('replaces the dates of date-bearing text, all of them, then the first', () => {
    const dates = sent(/^date extreme query dates /).map(
      (request) => request.query.find(([name]) => name === 'dates')?.[1],
    );
    expect(dates).toEqual(
      expect.arrayContaining([
        '+275760-09-13_+275760-09-13',
        '-000001-01-01_2027-03-31',
        '2027-02-29_2027-03-31',
      ]),
    );
    expect(dates).toHaveLength(DATE_EXTREMES.length * 2);
  });

  it('sets body dates at any depth, date-times in their own form', () => {
    const startsOn = sent(/^date extreme body starts_on /).map(
      (request) => (request.body as { value: { starts_on: string } }).value.starts_on,
    );
    expect(startsOn).toEqual(DATE_EXTREMES);
    const expiresAt = sent(/^date extreme body window\.expires_at /).map(
      (request) => (request.body as { value: { window: { expires_at: string } } }).value.window.expires_at,
    );
    expect(expiresAt).toEqual(DATE_TIME_EXTREMES);
    for (const request of sent(/^date extreme body /)) {
      expect((request.body as { value: { travellers: number } }).value.travellers).toBeGreaterThanOrEqual(1);
    }
  });

  it('sends nothing more for an operation without dates', () => {
    const [get] = listOperations(DOCUMENT);
    expect(dateExtremeRequests(get, new SchemaArbitraries(DOCUMENT), { sampleFiles: [] }, 7)).toEqual([]);
  });
});

describe('state snapshots', () => {
  it('fingerprints each table in one statement, ignored columns removed through jsonb', () => {
    const sql = snapshotSql(['users', 'tokens'], 'public', {
      tokens: { columns: ['last_used_at'], reason: 'r' },
    });
    expect(sql.split('UNION ALL')).toHaveLength(2);
    expect(sql).toContain(`md5(string_agg(r, '|' ORDER BY r))`);
    expect(sql).toContain(`SELECT t::text AS r FROM "public"."users" t`);
    expect(sql).toContain(`(to_jsonb(t) - 'last_used_at')::text AS r FROM "public"."tokens" t`);
  });

  it('lists what changed', () => {
    expect(snapshotDifferences({ a: '1', b: '2' }, { a: '1', b: '3', c: '4' })).toEqual([
      'b: 2 → 3',
      'c: absent → 4',
    ]);
    expect(snapshotDifferences({ a: '1' }, { a: '1' })).toEqual([]);
  });
});
