import { BuiltinEmbeddingProvider, BUILTIN_MODEL, tokens } from './builtin-embedding.provider';
import { toVectorLiteral } from './embedding-provider';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i], 0);
const norm = (a: Float32Array) => Math.sqrt(cosine(a, a));

describe('BuiltinEmbeddingProvider', () => {
  const provider = new BuiltinEmbeddingProvider(384);

  it('is deterministic: the same text gives the same vector, in any instance', async () => {
    const [a] = await provider.embedDocuments(['Escapade gourmande à Lyon']);
    const b = await new BuiltinEmbeddingProvider(384).embedQuery('Escapade gourmande à Lyon');
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(provider.model).toBe(BUILTIN_MODEL);
  });

  it('returns L2-normalised vectors of the configured dimension, even for text without words', async () => {
    for (const text of ['Wanderferien in Zürich', 'a', '', '!!! ???']) {
      const vector = await provider.embedQuery(text);
      expect(vector).toHaveLength(384);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    expect(await new BuiltinEmbeddingProvider(16).embedQuery('x')).toHaveLength(16);
  });

  it('folds case, accents and ligatures like the text configuration', async () => {
    expect(tokens('Zürich, GENÈVE & Œuvre – Straße')).toEqual(['zurich', 'geneve', 'oeuvre', 'strasse']);
    expect(
      cosine(await provider.embedQuery('Château de Genève'), await provider.embedQuery('chateau de geneve')),
    ).toBeCloseTo(1, 5);
  });

  it('is lexical: shared words and typos are close, unrelated texts are not', async () => {
    const offer = await provider.embedQuery('Hiking the trails of the Dolomiti');
    const typo = cosine(offer, await provider.embedQuery('hikking dolomitti'));
    const sameWords = cosine(offer, await provider.embedQuery('dolomiti hiking'));
    const unrelated = cosine(offer, await provider.embedQuery('Cooking classes in Lisboa'));
    expect(sameWords).toBeGreaterThan(typo);
    expect(typo).toBeGreaterThan(unrelated + 0.1);
    expect(Math.abs(unrelated)).toBeLessThan(0.2);
  });

  it('writes pgvector literals', () => {
    expect(toVectorLiteral(new Float32Array([0, 0.5, -0.25]))).toBe('[0,0.5000000,-0.2500000]');
  });
});
