import { passwordLinkTerms } from './password-link-terms';

describe('passwordLinkTerms', () => {
  const config = { PASSWORD_RESET_TTL_MINUTES: 60, INVITATION_TTL_DAYS: 7 };

  it('gives a reset link PASSWORD_RESET_TTL_MINUTES, said in minutes, on the reset page', () => {
    expect(passwordLinkTerms('reset', config)).toEqual({
      page: '/reset-password',
      ttlMs: 60 * 60 * 1000,
      validFor: { amount: 60, unit: 'minutes' },
    });
    expect(passwordLinkTerms('reset', { ...config, PASSWORD_RESET_TTL_MINUTES: 1 }).ttlMs).toBe(60_000);
  });

  it('gives an invitation INVITATION_TTL_DAYS, said in days, on the invitation page', () => {
    expect(passwordLinkTerms('invitation', config)).toEqual({
      page: '/accept-invitation',
      ttlMs: 7 * 24 * 60 * 60 * 1000,
      validFor: { amount: 7, unit: 'days' },
    });
    expect(passwordLinkTerms('invitation', { ...config, INVITATION_TTL_DAYS: 90 }).ttlMs).toBe(
      90 * 86_400_000,
    );
  });
});
