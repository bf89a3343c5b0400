import {
  ActivationCodeGenerator,
  CODE_ALPHABET,
  CODE_BITS,
  FULL_CODE_PATTERN,
  searchFitsCodes,
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

describe('searchFitsCodes', () => {
  it.each(['ABCD', 'abcd', 'cd-ef', 'D-EFGH-J', 'ABCD-EFGH-JKLM', 'abcd-efgh-jklm', '-EFGH-', 'M', '2-9'])(
    'lets %j through: some code can hold it',
    (search) => {
      expect(searchFitsCodes(search)).toBe(true);
    },
  );

  it.each([
    ['----', 'dashes nowhere together'],
    ['%%%%', 'not a symbol'],
    ['____', 'not a symbol'],
    ['AB0D', '0 is not in the alphabet'],
    ['oABC', 'O is not in the alphabet'],
    ['1ABC', '1 is not in the alphabet'],
    ['iABC', 'I is not in the alphabet'],
    ['ABCDE', 'five symbols in a row'],
    ['A-BC-D', 'groups have four symbols'],
    ['ABCD-EFGH-JKLM-', 'longer than a code'],
    ['ABCD-EFGH-JKLMN', 'longer than a code'],
    ['ABCD EFGH', 'a space'],
    ['ÀBCD', 'not ASCII'],
  ])('refuses %j (%s)', (search) => {
    expect(searchFitsCodes(search)).toBe(false);
  });

  it('agrees with FULL_CODE_PATTERN on every infix of generated codes', () => {
    const codes = new ActivationCodeGenerator().generate(50);
    for (const code of codes) {
      expect(code).toMatch(FULL_CODE_PATTERN);
      for (let from = 0; from < code.length; from++)
        for (let to = from + 1; to <= code.length; to++)
          expect(searchFitsCodes(code.slice(from, to))).toBe(true);
    }
  });

  it('the database check spells the same alphabet', () => {
    const checked = /^[2-9A-HJ-NP-Z]$/;
    for (const symbol of CODE_ALPHABET) expect(symbol).toMatch(checked);
    const others = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'].filter((c) => !CODE_ALPHABET.includes(c));
    for (const other of others) expect(other).not.toMatch(checked);
  });
});
