import { StemCache } from './stems';
import type { SqlQuery } from './stems';

describe('StemCache', () => {
  const stemRows = (tokens: string[]) =>
    tokens.map((token) => ({ token, fr: `${token}-fr`, de: null, en: token, stop: token === 'the' }));

  it('fetches the tokens not cached in one statement, then none', async () => {
    const statements: unknown[][] = [];
    const query: SqlQuery = async (_text, values) => {
      statements.push(values);
      return stemRows(values[0] as string[]);
    };
    const cache = new StemCache(query);
    const stems = await cache.formsOf(['ski', 'the', 'ski']);
    expect(stems('ski')).toEqual({ fr: 'ski-fr', de: null, en: 'ski', stop: false });
    expect(stems('the').stop).toBe(true);
    expect(() => stems('other')).toThrow(/requiredTokens/);
    await cache.formsOf(['the', 'lake']);
    await cache.formsOf(['lake', 'ski']);
    expect(statements).toEqual([[['ski', 'the']], [['lake']]]);
    expect(cache.statements).toBe(2);
  });

  it('shares a fetch between concurrent searches, and answers for tokens evicted since', async () => {
    let calls = 0;
    const query: SqlQuery = async (_text, values) => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return stemRows(values[0] as string[]);
    };
    const cache = new StemCache(query, 2);
    const [a, b] = await Promise.all([cache.formsOf(['a', 'b', 'c']), cache.formsOf(['a', 'b'])]);
    expect(calls).toBe(1);
    expect(cache.size).toBe(2);
    expect(a('a').fr).toBe('a-fr');
    expect(b('b').fr).toBe('b-fr');
  });
});
