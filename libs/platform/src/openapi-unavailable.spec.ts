import { documentServiceUnavailable } from './openapi-unavailable';

const ERROR = '#/components/schemas/ErrorResponseDto';

describe('documentServiceUnavailable', () => {
  const document = () => ({
    paths: {
      '/tags': {
        get: { operationId: 'listTags', responses: { '200': { description: 'Tags.' } } },
        post: { operationId: 'createTag', responses: { '201': { description: 'Made.' } } },
        parameters: [],
      },
      '/travels': {
        get: {
          operationId: 'list',
          responses: {
            '503': {
              description: '`embedding_unavailable`: the provider cannot answer.',
              content: { 'application/json': { schema: { $ref: ERROR } } },
            },
            '200': { description: 'Offers.' },
          },
        },
      },
    },
  });

  it('adds 503 with the envelope and Retry-After to every operation, in status order', () => {
    const documented = documentServiceUnavailable(document(), {
      description: 'Down.',
      errorSchemaRef: ERROR,
    });
    const listTags = documented.paths['/tags'].get.responses as Record<string, unknown>;
    expect(Object.keys(listTags)).toEqual(['200', '503']);
    expect(listTags['503']).toEqual({
      description: 'Down.',
      headers: {
        'Retry-After': {
          description: 'Seconds to wait before trying again.',
          schema: { type: 'integer', minimum: 1 },
        },
      },
      content: { 'application/json': { schema: { $ref: ERROR } } },
    });
    expect(Object.keys(documented.paths['/tags'].post.responses)).toEqual(['201', '503']);
    expect(documented.paths['/tags'].parameters).toEqual([]);
  });

  it("keeps an operation's own 503, adding the description and the header", () => {
    const documented = documentServiceUnavailable(document(), {
      description: 'Down.',
      errorSchemaRef: ERROR,
    });
    const travels = documented.paths['/travels'].get.responses as Record<string, Record<string, unknown>>;
    expect(Object.keys(travels)).toEqual(['200', '503']);
    expect(travels['503'].description).toBe('`embedding_unavailable`: the provider cannot answer. Down.');
    expect(travels['503'].headers).toHaveProperty('Retry-After');
    expect(travels['503'].content).toEqual({ 'application/json': { schema: { $ref: ERROR } } });
  });

  it('leaves the operations it does not apply to alone', () => {
    const documented = documentServiceUnavailable(document(), {
      description: 'Down.',
      errorSchemaRef: ERROR,
      appliesTo: (operation) => operation.operationId === 'createTag',
    });
    expect(Object.keys(documented.paths['/tags'].get.responses)).toEqual(['200']);
    expect(Object.keys(documented.paths['/tags'].post.responses)).toEqual(['201', '503']);
  });
});
