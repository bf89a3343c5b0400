/**
 * The best `capacity` (ordinal, similarity) pairs offered, in typed arrays allocated once and
 * reused by every search: a binary heap whose root is the worst kept, a lower similarity or the
 * same and a higher ordinal (ordinal order is id order: pgvector's `ORDER BY distance, id`).
 */
export class TopK {
  private readonly ordinals: Int32Array;
  private readonly similarities: Float64Array;
  private size = 0;
  private wanted = 0;

  constructor(readonly capacity: number) {
    this.ordinals = new Int32Array(capacity);
    this.similarities = new Float64Array(capacity);
  }

  /** Empties the heap for a search keeping the `wanted` best (at most the capacity). */
  reset(wanted: number): void {
    if (wanted > this.capacity) throw new Error(`top ${wanted} asked of a heap of ${this.capacity}`);
    this.size = 0;
    this.wanted = wanted;
  }

  /**
   * The similarity an offer must beat to be kept once the heap is full (−Infinity until then): a
   * scan offering ordinals in ascending order can skip every similarity at or below it.
   */
  get floor(): number {
    return this.size < this.wanted || this.wanted === 0 ? -Infinity : this.similarities[0];
  }

  offer(ordinal: number, similarity: number): void {
    const { ordinals, similarities } = this;
    if (this.size < this.wanted) {
      let at = this.size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!worse(similarity, ordinal, similarities[parent], ordinals[parent])) break;
        ordinals[at] = ordinals[parent];
        similarities[at] = similarities[parent];
        at = parent;
      }
      ordinals[at] = ordinal;
      similarities[at] = similarity;
    } else if (this.wanted > 0 && worse(similarities[0], ordinals[0], similarity, ordinal)) {
      this.replaceRoot(ordinal, similarity);
    }
  }

  /** The kept pairs, best first (allocates the answer's two arrays). */
  drain(): Neighbours {
    const count = this.size;
    const ordinals = new Int32Array(count);
    const similarities = new Float64Array(count);
    for (let at = count - 1; at >= 0; at--) {
      ordinals[at] = this.ordinals[0];
      similarities[at] = this.similarities[0];
      this.size--;
      if (this.size > 0) this.replaceRoot(this.ordinals[this.size], this.similarities[this.size]);
    }
    return { ordinals, similarities };
  }

  private replaceRoot(ordinal: number, similarity: number): void {
    const { ordinals, similarities, size } = this;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) break;
      const right = left + 1;
      const child =
        right < size && worse(similarities[right], ordinals[right], similarities[left], ordinals[left])
          ? right
          : left;
      if (!worse(similarities[child], ordinals[child], similarity, ordinal)) break;
      ordinals[at] = ordinals[child];
      similarities[at] = similarities[child];
      at = child;
    }
    ordinals[at] = ordinal;
    similarities[at] = similarity;
  }
}

/** Offers by ordinal with their cosine similarity to a query, best first (ties by ordinal). */
export interface Neighbours {
  ordinals: Int32Array;
  similarities: Float64Array;
}

/** Whether (a, its ordinal) ranks below (b, its ordinal). */
function worse(a: number, aOrdinal: number, b: number, bOrdinal: number): boolean {
  return a < b || (a === b && aOrdinal > bOrdinal);
}
