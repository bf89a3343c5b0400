import { findUnsafeInput, MAX_INPUT_DEPTH } from './unsafe-input';

describe('findUnsafeInput', () => {
  it('passes ordinary input, paired surrogates (emoji) included', () => {
    expect(
      findUnsafeInput({ name: 'Zürich 🏔', steps: [{ time: '10:00' }], n: 3, ok: true, none: null }),
    ).toBeNull();
    expect(findUnsafeInput(undefined)).toBeNull();
  });

  it('names the field of a NUL or an unpaired surrogate with dotted paths', () => {
    expect(findUnsafeInput({ first_name: 'A\u0000', steps: [{ time: '\ud800' }] })).toEqual({
      first_name: ['The first name field must not contain NUL characters.'],
      'steps.0.time': ['The steps.0.time field must be valid Unicode text.'],
    });
    expect(findUnsafeInput('\udc00x', 'id')).toEqual({ id: ['The id field must be valid Unicode text.'] });
  });

  it('reports a bad key on its parent, without echoing it', () => {
    expect(findUnsafeInput({ nested: { 'a\u0000': 1 } })).toEqual({
      nested: ['The nested field must not contain NUL characters.'],
    });
  });

  it('bounds nesting without recursing through it', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const problems = findUnsafeInput({ steps: deep });
    const [path] = Object.keys(problems ?? {});
    expect(path.split('.')).toHaveLength(MAX_INPUT_DEPTH);
    let allowed: unknown = 'leaf';
    for (let i = 0; i < MAX_INPUT_DEPTH - 1; i++) allowed = [allowed];
    expect(findUnsafeInput({ steps: allowed })).toBeNull();
  });
});
