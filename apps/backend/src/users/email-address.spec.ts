import { AppError } from '@rt/errors';
import {
  accountEmailOrRefuse,
  canonicalEmail,
  canonicalEmailOf,
  isHighlyRestrictiveLabel,
} from './email-address';

const accepted = (address: string) => {
  const { canonical, refusal } = canonicalEmailOf(address);
  expect(refusal).toBeNull();
  return canonical;
};
const refusalOf = (address: string) => canonicalEmailOf(address).refusal;

describe('canonicalEmailOf', () => {
  it('keeps an ordinary address, lower-cased and trimmed', () => {
    expect(accepted('  Ada.Lovelace+tours@Example.COM ')).toBe('ada.lovelace+tours@example.com');
  });

  it('folds the Kelvin sign to k (NFC) and lower-cases, so it names the account of k', () => {
    expect(accepted('\u212Aim@example.com')).toBe('kim@example.com');
  });

  it('keeps a dotted capital I apart from i: it lower-cases to i and a combining dot, never to i', () => {
    const dotted = accepted('İnfo@example.com');
    expect(dotted).toBe('i\u0307nfo@example.com');
    expect(dotted).not.toBe(canonicalEmail('info@example.com'));
  });

  it('composes a decomposed local part (NFC), so both spellings are one account', () => {
    expect(accepted('Rene\u0301@example.com')).toBe(accepted('rené@example.com'));
  });

  it('gives the Unicode and punycode spellings of a domain one form, in ASCII', () => {
    expect(accepted('info@Bücher.de')).toBe('info@xn--bcher-kva.de');
    expect(accepted('info@xn--bcher-kva.de')).toBe('info@xn--bcher-kva.de');
    expect(accepted('info@ｅｘａｍｐｌｅ.com')).toBe('info@example.com');
  });

  it('lets a label be one script, or Latin with Han and kana', () => {
    expect(accepted('a@пример.рф')).toBe('a@xn--e1afmkfd.xn--p1ai');
    expect(isHighlyRestrictiveLabel('abc漢字ひらがなカタカナ-1')).toBe(true);
    expect(isHighlyRestrictiveLabel('abc漢字한글')).toBe(true);
  });

  it.each([
    ['a zero-width space', 'in\u200Bfo@example.com', 'email_invisible_character'],
    ['a zero-width space in the domain', 'info@exa\u200Bmple.com', 'email_invisible_character'],
    ['a bidi override', 'info\u202E@example.com', 'email_invisible_character'],
    ['a leading byte order mark', '\uFEFFinfo@example.com', 'email_invisible_character'],
    ['a soft hyphen', 'in\u00ADfo@example.com', 'email_invisible_character'],
    ['a no-break space', 'in\u00A0fo@example.com', 'email_invisible_character'],
    ['full-width letters', 'ｉｎｆｏ@example.com', 'email_compatibility_character'],
    ['a ligature', 'ﬁle@example.com', 'email_compatibility_character'],
    ['a Cyrillic е in a Latin label', 'info@\u0435xample.com', 'email_mixed_script_domain'],
    ['the same as punycode', 'info@xn--xample-2of.com', 'email_mixed_script_domain'],
    ['Greek with Latin', 'info@ex\u03B1mple.com', 'email_mixed_script_domain'],
    ['an empty label', 'info@example..com', 'email_invalid_domain'],
    ['no domain', 'info', 'email_invalid_domain'],
  ])('refuses %s', (_, address, refusal) => {
    expect(refusalOf(address)).toBe(refusal);
  });

  it('gives a refused address a form of its own: it never matches the plain address', () => {
    expect(canonicalEmail('in\u200Bfo@example.com')).toBe('in\u200Bfo@example.com');
    expect(canonicalEmail('ｉｎｆｏ@example.com')).not.toBe('info@example.com');
    expect(canonicalEmail('info@\u0435xample.com')).toBe('info@xn--xample-2of.com');
  });

  it('is idempotent', () => {
    for (const address of ['İnfo@Bücher.DE', 'ΣΑΣ@example.com', '\u212Aim@example.com']) {
      expect(canonicalEmail(canonicalEmail(address))).toBe(canonicalEmail(address));
    }
  });
});

describe('accountEmailOrRefuse', () => {
  it('answers a 422 on the field with the refusal as reason', () => {
    let caught: unknown;
    try {
      accountEmailOrRefuse('contact_email', 'info@\u0435xample.com');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).toBody()).toEqual({
      message: expect.any(String),
      errors: { contact_email: [expect.stringMatching(/^The contact email field's domain mixes scripts/)] },
      reason: 'email_mixed_script_domain',
    });
  });
});
