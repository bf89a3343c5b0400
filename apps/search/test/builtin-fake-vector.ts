import type { FakeVector } from '@rt/testing';
import { BuiltinEmbeddingProvider } from '../src/embedding/builtin-embedding.provider';

/** The fake embedding server's vectors in these tests: the built-in provider's, times 3 (not normalised). */
export const builtinTimesThree: FakeVector = (text, dimension) =>
  Array.from(new BuiltinEmbeddingProvider(dimension).embed(text), (value) => value * 3);
