import { hashPassword, needsRehash, parsePasswordHash, verifyPassword } from './password-hash';
import { PasswordHasher } from './password-hasher';
import { PasswordSettings } from './password.settings';

const FAST = { n: 1024, r: 8, p: 1 };

describe('password hashes (scrypt)', () => {
  it("hash and verify at the default settings' cost (128·N·r bytes: at Node's default scrypt limit)", async () => {
    const settings = new PasswordSettings();
    const hasher = new PasswordHasher(settings);
    const hash = await hasher.hash('correct horse battery staple');
    expect(parsePasswordHash(hash)?.parameters).toEqual({
      n: settings.PASSWORD_SCRYPT_N,
      r: settings.PASSWORD_SCRYPT_R,
      p: settings.PASSWORD_SCRYPT_P,
    });
    await expect(hasher.verify('correct horse battery staple', hash)).resolves.toBe(true);
    await expect(hasher.verify('correct horse battery stapl', hash)).resolves.toBe(false);
    expect(hasher.needsRehash(hash)).toBe(false);
  });

  it('round-trip their parameters, salt and key', async () => {
    const hash = await hashPassword('pässwörd with ünicode', FAST);
    const parsed = parsePasswordHash(hash);
    expect(parsed?.parameters).toEqual(FAST);
    expect(parsed?.salt).toHaveLength(16);
    expect(parsed?.key).toHaveLength(32);
    // Salted: the same password never hashes the same.
    expect(await hashPassword('pässwörd with ünicode', FAST)).not.toBe(hash);
  });

  it('verify with the parameters stored in the hash, whatever the current ones', async () => {
    const old = await hashPassword('an older password', { n: 2048, r: 4, p: 2 });
    await expect(verifyPassword('an older password', old)).resolves.toBe(true);
    expect(needsRehash(old, FAST)).toBe(true);
    expect(needsRehash(await hashPassword('x', FAST), FAST)).toBe(false);
  });

  it('treat Unicode compositions alike (NFC)', async () => {
    const hash = await hashPassword('caf\u00e9 au lait!!', FAST);
    await expect(verifyPassword('cafe\u0301 au lait!!', hash)).resolves.toBe(true);
  });

  it.each([
    '',
    'plain',
    '$2y$10$abcdefghijklmnopqrstuv',
    '$scrypt$ln=15,r=8,p=3$c2FsdA',
    '$scrypt$ln=99,r=8,p=1$c2FsdA$a2V5',
  ])('refuse the unparseable hash %j', async (hash) => {
    await expect(verifyPassword('anything', hash)).resolves.toBe(false);
    expect(needsRehash(hash, FAST)).toBe(true);
  });
});
