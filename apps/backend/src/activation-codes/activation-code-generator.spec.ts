import {
  ActivationCodeGenerator,
  CODE_ALPHABET,
  CODE_BITS,
  FULL_CODE_PATTERN,
  normalizeTypedCode,
} from './activation-code-generator';

describe('ActivationCodeGenerator', () => {
  const generator = new ActivationCodeGenerator();

  it('carries at least 60 random bits per code', () => {
    expect(CODE_ALPHABET.length).toBe(32);
    expect(CODE_BITS).toBeGreaterThanOrEqual(60);
  });

  it('uses no look-alike characters', () => {
    for (const lookAlike of ['0', 'O', '1', 'I']) expect(CODE_ALPHABET).not.toContain(lookAlike);
    expect(new Set(CODE_ALPHABET).size).toBe(CODE_ALPHABET.length);
  });

  it('writes codes as ABCD-EFGH-JKLM from the alphabet', () => {
    for (const value of generator.generate(1000)) {
      expect(value).toMatch(FULL_CODE_PATTERN);
      expect(value).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    }
  });

  it('gives as many codes as asked, all distinct over a large sample', () => {
    const codes = generator.generate(100_000);
    expect(codes).toHaveLength(100_000);
    expect(new Set(codes).size).toBe(100_000);
    expect(generator.generate(0)).toEqual([]);
    expect(generator.generate(1)).toHaveLength(1);
  });

  it('draws every symbol of the alphabet about equally often', () => {
    const counts = new Map<string, number>();
    for (const value of generator.generate(20_000)) {
      for (const symbol of value.replace(/-/g, '')) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
    }
    expect(counts.size).toBe(32);
    const expected = (20_000 * 12) / 32; // 7,500 each
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(expected * 0.9);
      expect(count).toBeLessThan(expected * 1.1);
    }
  });
});

describe('normalizeTypedCode', () => {
  it.each([
    ['ABCD-EFGH-JKLM', 'ABCD-EFGH-JKLM'],
    ['abcd-efgh-jklm', 'ABCD-EFGH-JKLM'],
    ['abcdefghjklm', 'ABCD-EFGH-JKLM'],
    [' ABCD EFGH JKLM ', 'ABCD-EFGH-JKLM'],
    ['1BCD-EFGH-JKIM', 'LBCD-EFGH-JKLM'],
  ])('reads %j as %s', (typed, stored) => {
    expect(normalizeTypedCode(typed)).toBe(stored);
  });

  it.each(['', 'ABCD-EFGH', 'ABCD-EFGH-JKLMN', 'ABCD-EFGH-JK0M', 'ABCD_EFGH_JKLM', 'ÄBCD-EFGH-JKLM'])(
    'refuses %j',
    (typed) => {
      expect(normalizeTypedCode(typed)).toBeNull();
    },
  );
});
