import { seededRandom } from '@rt/contracts';
import { TopK } from './top-k';

describe('TopK', () => {
  it('keeps the k best by similarity, ties by ordinal, best first', () => {
    const random = seededRandom(7);
    // few distinct similarities: many ties
    const similarities = Array.from({ length: 500 }, () => Math.round(random() * 20) / 20);
    const heap = new TopK(40);
    for (const wanted of [0, 1, 13, 40]) {
      heap.reset(wanted);
      similarities.forEach((similarity, ordinal) => heap.offer(ordinal, similarity));
      const expected = similarities
        .map((similarity, ordinal) => ({ similarity, ordinal }))
        .sort((a, b) => b.similarity - a.similarity || a.ordinal - b.ordinal)
        .slice(0, wanted);
      const { ordinals, similarities: kept } = heap.drain();
      expect([...ordinals]).toEqual(expected.map(({ ordinal }) => ordinal));
      expect([...kept]).toEqual(expected.map(({ similarity }) => similarity));
    }
  });

  it('answers fewer than asked when fewer were offered, and refuses more than its capacity', () => {
    const heap = new TopK(5);
    heap.reset(5);
    heap.offer(3, 0.5);
    heap.offer(1, 0.5);
    expect([...heap.drain().ordinals]).toEqual([1, 3]);
    expect(() => heap.reset(6)).toThrow('top 6 asked of a heap of 5');
  });
});
