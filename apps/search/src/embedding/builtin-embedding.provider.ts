import type { EmbeddingProvider } from './embedding-provider';

export const BUILTIN_MODEL = 'builtin-hashed-ngrams-v1';

const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
const NGRAM_WEIGHT = 0.3;
const NGRAM_SIZES = [3, 4];

/**
 * The offline embedding provider: a deterministic "hashing trick" over the words of the text, its
 * word pairs and the character 3- and 4-grams of each word, folded into `dimension` buckets with a
 * hashed sign, then L2-normalised.
 *
 * It is lexical, not a language model: texts are close when they share words or word fragments
 * ("chateau" ~ "Château", "Zurich" ~ "Zürich", a typo keeps most n-grams), never because they mean the
 * same thing in other words or another language ("beach" is not near "plage"). It needs no download,
 * answers in microseconds and gives the same vector for the same text on every machine, which is why
 * it is the default for local runs and tests.
 */
export class BuiltinEmbeddingProvider implements EmbeddingProvider {
  readonly model = BUILTIN_MODEL;

  constructor(readonly dimension: number) {}

  embedDocuments(texts: string[]): Promise<Float32Array[]> {
    return Promise.resolve(texts.map((text) => this.embed(text)));
  }

  embedQuery(text: string): Promise<Float32Array> {
    return Promise.resolve(this.embed(text));
  }

  /** The vector of one text (synchronous; the reindex yields between batches). */
  embed(text: string): Float32Array {
    const sums = new Float64Array(this.dimension);
    const words = tokens(text);
    const add = (hash: number, weight: number) => {
      sums[hash % this.dimension] += hash & 0x80000000 ? -weight : weight;
    };
    for (let w = 0; w < words.length; w++) {
      const word = words[w];
      add(fnv1a(word, 0, word.length, 0x77), WORD_WEIGHT);
      if (w > 0)
        add(fnv1a(`${words[w - 1]} ${word}`, 0, words[w - 1].length + 1 + word.length, 0x62), BIGRAM_WEIGHT);
      const padded = `^${word}$`;
      for (const size of NGRAM_SIZES) {
        for (let start = 0; start + size <= padded.length; start++) {
          add(fnv1a(padded, start, start + size, size), NGRAM_WEIGHT);
        }
      }
    }
    if (words.length === 0) add(fnv1a('', 0, 0, 0x30), 1);
    return l2Normalised(sums);
  }
}

/** Lower case, accents and ligatures folded (as the `travel_search` text configuration does), split on anything else. */
export function tokens(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/ß/g, 'ss')
      .replace(/œ/g, 'oe')
      .replace(/æ/g, 'ae')
      .replace(/ø/g, 'o')
      .replace(/ł/g, 'l')
      .replace(/đ/g, 'd')
      .replace(/þ/g, 'th')
      .replace(/ı/g, 'i')
      .match(/[a-z0-9]+/g) ?? []
  );
}

/** 32-bit FNV-1a over `text[start, end)`, with a salt so that words, pairs and n-grams differ. */
function fnv1a(text: string, start: number, end: number, salt: number): number {
  let hash = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = start; i < end; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  // A final avalanche, so that nearby n-grams spread over buckets and signs.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x7feb352d) >>> 0;
  hash ^= hash >>> 15;
  return hash >>> 0;
}

function l2Normalised(sums: Float64Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < sums.length; i++) norm += sums[i] * sums[i];
  norm = Math.sqrt(norm);
  const vector = new Float32Array(sums.length);
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  for (let i = 0; i < sums.length; i++) vector[i] = sums[i] / norm;
  return vector;
}
