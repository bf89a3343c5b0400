import { generateCatalogue } from '../../catalogue/catalogue-generator';
import { embeddingTextOf, toIndexedOffer } from '../../catalogue/catalogue-record';
import { RecordValidator } from '../../catalogue/record-validator';
import { BuiltinEmbeddingProvider } from '../../embedding/builtin-embedding.provider';
import { cosineAt } from './full-precision-vectors';

export const DIMENSION = 384;

const provider = new BuiltinEmbeddingProvider(DIMENSION);

/** The built-in provider's vectors of the first `count` generated offers (the valid ones), in id order, flat. */
export function offerVectors(count: number): Float32Array {
  const validator = new RecordValidator();
  const texts = [...generateCatalogue({ count })]
    .filter((record) => validator.check(record).ok)
    .map(toIndexedOffer)
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map(embeddingTextOf);
  const vectors = new Float32Array(texts.length * DIMENSION);
  texts.forEach((text, o) => vectors.set(provider.embed(text), o * DIMENSION));
  return vectors;
}

/** Searches as people type them, embedded. */
export const QUERIES = [
  'ski',
  'randonnée',
  'beach Naxos',
  'Wanderung am See',
  'wine tasting Toscana',
  'city break Praha',
  'croisiere sur le lac avec degustation de vin',
  'a relaxing weekend with wellness and good food in the mountains',
  'Santorni',
  'Zermatt',
  'family',
  'xyzzyqqq',
  // dense: more non-zero dimensions than the sparse scan takes
  'a two week road trip along the coast of Portugal with surfing lessons, wine tasting in the Douro valley and nights in historic pousadas',
].map((search) => provider.embed(search));

/** The `k` ordinals (of `among`, else all) nearest to `query` by full-precision cosine, ties by ordinal. */
export function bruteForce(
  vectors: Float32Array,
  query: Float32Array,
  k: number,
  among?: Int32Array,
): number[] {
  const ordinals = among ? [...among] : Array.from({ length: vectors.length / DIMENSION }, (_, o) => o);
  return ordinals
    .map((o) => ({ o, similarity: cosineAt(query, vectors, o * DIMENSION, DIMENSION) }))
    .sort((a, b) => b.similarity - a.similarity || a.o - b.o)
    .slice(0, k)
    .map(({ o }) => o);
}
