import { convertSchema, toOpenApi31 } from './openapi31';

describe('toOpenApi31', () => {
  it('turns nullable scalars into type arrays with "null"', () => {
    expect(convertSchema({ type: 'string', nullable: true })).toEqual({ type: ['string', 'null'] });
  });

  it('adds null to a nullable enum', () => {
    expect(convertSchema({ type: 'string', enum: ['a', 'b'], nullable: true })).toEqual({
      type: ['string', 'null'],
      enum: ['a', 'b', null],
    });
  });

  it('wraps a nullable $ref in anyOf with null, keeping its description outside', () => {
    expect(convertSchema({ $ref: '#/components/schemas/Image', nullable: true, description: 'x' })).toEqual({
      description: 'x',
      anyOf: [{ $ref: '#/components/schemas/Image' }, { type: 'null' }],
    });
  });

  it('unwraps an allOf around a single $ref, keeping its siblings', () => {
    expect(convertSchema({ allOf: [{ $ref: '#/components/schemas/Role' }], description: 'x' })).toEqual({
      $ref: '#/components/schemas/Role',
      description: 'x',
    });
    const twoMembers = { allOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }] };
    expect(convertSchema(twoMembers)).toEqual(twoMembers);
  });

  it('makes a nullable object $ref accept null (not "null" in type beside an allOf that refuses it)', () => {
    expect(
      convertSchema({
        type: 'object',
        nullable: true,
        description: 'x',
        allOf: [{ $ref: '#/components/schemas/Image' }],
      }),
    ).toEqual({ description: 'x', anyOf: [{ $ref: '#/components/schemas/Image' }, { type: 'null' }] });
    expect(
      convertSchema({ type: 'object', nullable: true, oneOf: [{ type: 'string' }, { type: 'integer' }] }),
    ).toEqual({
      anyOf: [{ type: 'object', oneOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'null' }],
    });
  });

  it('drops nullable: false', () => {
    expect(convertSchema({ type: 'integer', nullable: false })).toEqual({ type: 'integer' });
  });

  it('turns boolean exclusive bounds into numeric ones', () => {
    expect(
      convertSchema({
        type: 'number',
        minimum: 0,
        exclusiveMinimum: true,
        maximum: 1,
        exclusiveMaximum: false,
      }),
    ).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
    });
  });

  it('moves a schema example into examples', () => {
    expect(convertSchema({ type: 'string', example: 'a' })).toEqual({ type: 'string', examples: ['a'] });
  });

  it('converts nested properties, items and compositions, and the whole document', () => {
    const document = {
      openapi: '3.0.0',
      paths: {
        '/x': {
          get: {
            parameters: [{ name: 'q', in: 'query', schema: { type: 'string', nullable: true } }],
            responses: {
              '200': {
                content: {
                  'application/json': {
                    schema: {
                      type: 'array',
                      items: { type: 'object', properties: { a: { type: 'string', nullable: true } } },
                    },
                  },
                },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          A: { type: 'object', properties: { b: { allOf: [{ type: 'integer', nullable: true }] } } },
        },
      },
    };
    const converted = toOpenApi31(document);
    expect(converted.openapi).toBe('3.1.0');
    expect(converted.paths['/x'].get.parameters[0].schema).toEqual({ type: ['string', 'null'] });
    expect(
      converted.paths['/x'].get.responses['200'].content['application/json'].schema.items.properties.a,
    ).toEqual({ type: ['string', 'null'] });
    expect(converted.components.schemas.A.properties.b).toEqual({ allOf: [{ type: ['integer', 'null'] }] });
    expect(document.openapi).toBe('3.0.0');
  });
});
