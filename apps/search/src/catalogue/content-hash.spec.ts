import { canonicalJson, contentHash } from './content-hash';

describe('content hash', () => {
  const model = { model: 'builtin-hashed-ngrams-v1', dimension: 384 };
  const record = { id: 'A', name: 'Zürich', nested: { b: 1, a: [2, { y: 1, x: null }] } };

  it('ignores key order at every level', () => {
    const reordered = { nested: { a: [2, { x: null, y: 1 }], b: 1 }, name: 'Zürich', id: 'A' };
    expect(canonicalJson(reordered)).toBe(canonicalJson(record));
    expect(contentHash(reordered, model)).toBe(contentHash(record, model));
  });

  it('changes with the content, the embedding model and the dimension', () => {
    const base = contentHash(record, model);
    expect(contentHash({ ...record, name: 'Zurich' }, model)).not.toBe(base);
    expect(contentHash(record, { ...model, model: 'text-embedding-3-small' })).not.toBe(base);
    expect(contentHash(record, { ...model, dimension: 768 })).not.toBe(base);
  });

  it('keeps array order and distinguishes null from absent', () => {
    expect(contentHash({ a: [1, 2] }, model)).not.toBe(contentHash({ a: [2, 1] }, model));
    expect(contentHash({ a: null }, model)).not.toBe(contentHash({}, model));
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });
});
