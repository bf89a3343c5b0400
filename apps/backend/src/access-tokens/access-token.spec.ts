import { createHash } from 'node:crypto';
import { accessTokenMatches, bearerTokenOf, newAccessToken, parseAccessToken } from './access-token';

describe('access tokens', () => {
  it('are `<uuid>|<48 alphanumerics>`, stored as the SHA-256 of the secret part', () => {
    const token = newAccessToken();
    expect(token.plainText).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\|[A-Za-z0-9]{48}$/,
    );
    const [id, secret] = token.plainText.split('|');
    expect(token.id).toBe(id);
    expect(token.hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(token.hash).not.toContain(secret);
    expect(newAccessToken().plainText).not.toBe(token.plainText);
  });

  it('parse back and match their stored hash, and only theirs', () => {
    const token = newAccessToken();
    const parsed = parseAccessToken(token.plainText);
    expect(parsed).toEqual({ id: token.id, secret: token.plainText.split('|')[1] });
    expect(accessTokenMatches(parsed!, token.hash)).toBe(true);
    expect(accessTokenMatches(parsed!, newAccessToken().hash)).toBe(false);
  });

  it('normalise the id to lower case', () => {
    const token = newAccessToken();
    expect(parseAccessToken(token.plainText.toUpperCase().replace(/\|.*/, `|${'a'.repeat(40)}`))?.id).toBe(
      token.id,
    );
  });

  it.each([
    '',
    'abc',
    `not-a-uuid|${'a'.repeat(48)}`,
    `00000000-0000-4000-8000-000000000000|${'a'.repeat(39)}`,
    `00000000-0000-4000-8000-000000000000|${'a'.repeat(47)}!`,
    `00000000-0000-4000-8000-000000000000${'a'.repeat(48)}`,
    `1|${'a'.repeat(48)}`,
  ])('refuse %j', (value) => {
    expect(parseAccessToken(value)).toBeNull();
  });

  it('come from an `Authorization: Bearer` header only', () => {
    expect(bearerTokenOf('Bearer abc|def')).toBe('abc|def');
    expect(bearerTokenOf('bearer   abc')).toBe('abc');
    expect(bearerTokenOf('Basic abc')).toBeNull();
    expect(bearerTokenOf('Bearer')).toBeNull();
    expect(bearerTokenOf('Bearer a b')).toBeNull();
    expect(bearerTokenOf(undefined)).toBeNull();
  });
});
