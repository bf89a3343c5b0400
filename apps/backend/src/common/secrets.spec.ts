import { constantTimeEquals, randomAlphanumeric, secretMatchesHash, sha256Hex } from './secrets';

describe('secrets', () => {
  it('draws alphanumeric strings of the requested length', () => {
    const values = Array.from({ length: 50 }, () => randomAlphanumeric(48));
    for (const value of values) expect(value).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(new Set(values).size).toBe(50);
    expect(randomAlphanumeric(1)).toHaveLength(1);
  });

  it('uses the whole alphabet', () => {
    const seen = new Set(randomAlphanumeric(20_000));
    expect(seen.size).toBe(62);
  });

  it('matches a secret against its stored SHA-256 only', () => {
    const hash = sha256Hex('s3cret');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(secretMatchesHash('s3cret', hash)).toBe(true);
    expect(secretMatchesHash('s3creT', hash)).toBe(false);
    expect(secretMatchesHash('s3cret', 'not hex')).toBe(false);
    expect(secretMatchesHash('s3cret', hash.slice(0, 62))).toBe(false);
  });

  it('compares strings of any length in constant time', () => {
    expect(constantTimeEquals('a'.repeat(40), 'a'.repeat(40))).toBe(true);
    expect(constantTimeEquals('a'.repeat(40), 'a'.repeat(41))).toBe(false);
    expect(constantTimeEquals('', 'a')).toBe(false);
  });
});
