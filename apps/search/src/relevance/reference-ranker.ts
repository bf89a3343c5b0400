import type { CatalogueRecord } from '../catalogue/catalogue-record';

/**
 * The reference ranker of the relevance command, computed in-process over the same
 * catalogue: BM25 (k1 1.2, b 0.75) with every word optional over folded tokens (the name counted
 * twice, the description once), plus the cosine of TF-IDF character-trigram vectors of the same
 * text, fused by RRF (k 60, weight 0.5). What a plain search library gives without language
 * analysis, typo handling or field boosts: the bar the service's hybrid ranking must clear.
 */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/ae/g, 'a')
    .replace(/oe/g, 'o')
    .replace(/ue/g, 'u');
}

export const tokens = (text: string): string[] =>
  fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

function trigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokens(text)) {
    const padded = `  ${token} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const gram = padded.slice(i, i + 3);
      counts.set(gram, (counts.get(gram) ?? 0) + 1);
    }
  }
  return counts;
}

const K1 = 1.2;
const B = 0.75;
const RRF_K = 60;
const WEIGHT = 0.5;

export class ReferenceRanker {
  private readonly ids: string[] = [];
  private readonly termFrequencies: Map<string, number>[] = [];
  private readonly lengths: number[] = [];
  private readonly documentFrequency = new Map<string, number>();
  private readonly trigramVectors: Map<string, number>[] = [];
  private readonly trigramFrequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(records: Iterable<CatalogueRecord>) {
    for (const record of records) {
      const words = [...tokens(record.name), ...tokens(record.name), ...tokens(record.description ?? '')];
      const tf = new Map<string, number>();
      for (const word of words) tf.set(word, (tf.get(word) ?? 0) + 1);
      for (const word of tf.keys())
        this.documentFrequency.set(word, (this.documentFrequency.get(word) ?? 0) + 1);
      const grams = trigrams(`${record.name} ${record.description ?? ''}`);
      for (const gram of grams.keys())
        this.trigramFrequency.set(gram, (this.trigramFrequency.get(gram) ?? 0) + 1);
      this.ids.push(record.id);
      this.termFrequencies.push(tf);
      this.lengths.push(words.length);
      this.trigramVectors.push(grams);
    }
    this.averageLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
    const n = this.ids.length;
    for (const vector of this.trigramVectors) this.weigh(vector, n);
  }

  private weigh(vector: Map<string, number>, n: number): void {
    let norm = 0;
    for (const [gram, count] of vector) {
      const weight = count * Math.log((1 + n) / (1 + (this.trigramFrequency.get(gram) ?? 0)));
      vector.set(gram, weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [gram, weight] of vector) vector.set(gram, weight / norm);
  }

  /** The best `limit` ids for a query. */
  search(query: string, limit: number): string[] {
    const n = this.ids.length;
    const words = [...new Set(tokens(query))];
    const bm25: [number, number][] = [];
    for (let i = 0; i < n; i++) {
      let score = 0;
      for (const word of words) {
        const tf = this.termFrequencies[i].get(word);
        if (!tf) continue;
        const df = this.documentFrequency.get(word) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.lengths[i]) / this.averageLength));
      }
      if (score > 0) bm25.push([i, score]);
    }
    const queryVector = trigrams(query);
    this.weigh(queryVector, n);
    const cosine: [number, number][] = [];
    for (let i = 0; i < n; i++) {
      let dot = 0;
      for (const [gram, weight] of queryVector) dot += weight * (this.trigramVectors[i].get(gram) ?? 0);
      if (dot > 0) cosine.push([i, dot]);
    }
    const fused = new Map<number, number>();
    const byScore = (a: [number, number], b: [number, number]) => b[1] - a[1] || a[0] - b[0];
    bm25.sort(byScore).forEach(([i], rank) => fused.set(i, (1 - WEIGHT) / (RRF_K + rank + 1)));
    cosine
      .sort(byScore)
      .forEach(([i], rank) => fused.set(i, (fused.get(i) ?? 0) + WEIGHT / (RRF_K + rank + 1)));
    return [...fused.entries()]
      .sort(byScore)
      .slice(0, limit)
      .map(([i]) => this.ids[i]);
  }
}
