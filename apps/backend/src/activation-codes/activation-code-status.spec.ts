import {
  CodeFlags,
  claimRefusalOf,
  CODE_STATUSES,
  flagsOf,
  isActive,
  skipReasonOf,
  statusOf,
  tripStartRefusalOf,
} from './activation-code-status';

const now = new Date('2026-11-24T12:00:00Z');
const past = new Date('2026-11-01T00:00:00Z');
const future = new Date('2027-01-01T00:00:00Z');
const at = new Date('2026-10-01T00:00:00Z');

const code = (flags: Partial<CodeFlags> = {}): CodeFlags => ({
  purchasedAt: null,
  usedAt: null,
  cancelledAt: null,
  reimbursedAt: null,
  expiresAt: null,
  tripStartsOn: null,
  tripEndsOn: null,
  ...flags,
});

describe('statusOf', () => {
  it('is in stock without any flag, with or without a future expiration', () => {
    expect(statusOf(code(), now)).toBe('in stock');
    expect(statusOf(code({ expiresAt: future }), now)).toBe('in stock');
  });

  it.each([
    ['purchased', code({ purchasedAt: at })],
    ['expired', code({ expiresAt: past })],
    ['expired', code({ expiresAt: past, purchasedAt: at })],
    ['used', code({ usedAt: at, purchasedAt: at, expiresAt: past })],
    ['cancelled', code({ cancelledAt: at, usedAt: at, purchasedAt: at, expiresAt: past })],
    ['reimbursed', code({ reimbursedAt: at, cancelledAt: at, usedAt: at, purchasedAt: at, expiresAt: past })],
    ['reimbursed', code({ reimbursedAt: at })],
  ])('is %s by precedence', (status, flags) => {
    expect(statusOf(flags, now)).toBe(status);
  });

  it('expires strictly after expires_at (an expiration equal to now is not past)', () => {
    expect(statusOf(code({ expiresAt: now }), now)).toBe('in stock');
    expect(statusOf(code({ expiresAt: new Date(now.getTime() - 1) }), now)).toBe('expired');
  });

  it('derives every flag; a used code without a trip window is not active', () => {
    const flags = flagsOf(code({ usedAt: at, purchasedAt: at, expiresAt: past }), now);
    expect(flags).toEqual({
      isReimbursed: false,
      isCancelled: false,
      isActive: false,
      isUsed: true,
      isExpired: true,
      isPurchased: true,
    });
  });

  it('lists the statuses in the precedence statusOf follows, each reached by one more flag', () => {
    const trip = { tripStartsOn: '2026-11-20', tripEndsOn: '2026-11-30' };
    const fromLowest: Partial<CodeFlags>[] = [
      {},
      { purchasedAt: at },
      { purchasedAt: at, expiresAt: past },
      { purchasedAt: at, expiresAt: past, usedAt: at },
      { purchasedAt: at, expiresAt: past, usedAt: at, ...trip },
      { purchasedAt: at, expiresAt: past, usedAt: at, ...trip, cancelledAt: at },
      { purchasedAt: at, expiresAt: past, usedAt: at, ...trip, cancelledAt: at, reimbursedAt: at },
    ];
    expect(fromLowest.map((flags) => statusOf(code(flags), now)).reverse()).toEqual(CODE_STATUSES);
  });
});

describe('skipReasonOf', () => {
  const inStock = code();
  const purchased = code({ purchasedAt: at });
  const expired = code({ expiresAt: past });
  const expiredPurchased = code({ expiresAt: past, purchasedAt: at });
  const cancelled = code({ cancelledAt: at });
  const cancelledPurchased = code({ cancelledAt: at, purchasedAt: at });
  const reimbursed = code({ reimbursedAt: at, cancelledAt: at, purchasedAt: at });
  const used = code({ usedAt: at, purchasedAt: at });

  it.each([
    ['in stock', inStock, null],
    ['purchased', purchased, null],
    ['expired', expired, null],
    ['cancelled', cancelled, 'already_cancelled'],
    ['reimbursed', reimbursed, 'already_reimbursed'],
    ['used', used, 'code_used'],
  ])('cancel from %s → %s', (_name, flags, reason) => {
    expect(skipReasonOf('cancel', flags, now)).toBe(reason);
  });

  it.each([
    ['purchased', purchased, null],
    ['expired and purchased', expiredPurchased, null],
    ['cancelled and purchased', cancelledPurchased, null],
    ['in stock', inStock, 'not_purchased'],
    ['expired, never purchased', expired, 'not_purchased'],
    ['cancelled, never purchased', cancelled, 'not_purchased'],
    ['reimbursed', reimbursed, 'already_reimbursed'],
    ['used', used, 'code_used'],
  ])('reimburse from %s → %s', (_name, flags, reason) => {
    expect(skipReasonOf('reimburse', flags, now)).toBe(reason);
  });

  it.each([
    ['purchased', purchased, null],
    ['expired and purchased', expiredPurchased, null],
    ['in stock', inStock, 'not_purchased'],
    ['expired, never purchased', expired, 'not_purchased'],
    ['cancelled', cancelledPurchased, 'not_renewable'],
    ['reimbursed', reimbursed, 'not_renewable'],
    ['used', used, 'code_used'],
  ])('renew from %s → %s', (_name, flags, reason) => {
    expect(skipReasonOf('renew', flags, now)).toBe(reason);
  });
});

describe('claimRefusalOf', () => {
  const claimable = (flags: Partial<CodeFlags> = {}, claimedByUserId: string | null = null) => ({
    ...code(flags),
    claimedByUserId,
  });

  it('lets anyone claim a free code, in stock or purchased', () => {
    expect(claimRefusalOf(claimable(), 'u1', now)).toBeNull();
    expect(claimRefusalOf(claimable({ purchasedAt: at }), 'u1', now)).toBeNull();
  });

  it('answers the holder unchanged and refuses everyone else', () => {
    expect(claimRefusalOf(claimable({ purchasedAt: at }, 'u1'), 'u1', now)).toBeNull();
    expect(claimRefusalOf(claimable({ purchasedAt: at }, 'u1'), 'u2', now)).toBe('already_claimed');
  });

  it('refuses reimbursed, cancelled and expired codes', () => {
    expect(claimRefusalOf(claimable({ reimbursedAt: at, cancelledAt: at }), 'u1', now)).toBe(
      'code_reimbursed',
    );
    expect(claimRefusalOf(claimable({ cancelledAt: at }), 'u1', now)).toBe('code_cancelled');
    expect(claimRefusalOf(claimable({ expiresAt: past }), 'u1', now)).toBe('code_expired');
  });
});

describe('isActive (the trip window, today in Europe/Zurich)', () => {
  const trip = (tripStartsOn: string, tripEndsOn: string) =>
    code({ usedAt: at, purchasedAt: at, tripStartsOn, tripEndsOn });

  it('is active from the first day through the last, both inclusive', () => {
    // now is 2026-11-24 13:00 in Zurich.
    expect(isActive(trip('2026-11-24', '2026-11-24'), now)).toBe(true);
    expect(isActive(trip('2026-11-20', '2026-11-24'), now)).toBe(true);
    expect(isActive(trip('2026-11-24', '2026-11-30'), now)).toBe(true);
    expect(isActive(trip('2026-11-25', '2026-11-30'), now)).toBe(false);
    expect(isActive(trip('2026-11-01', '2026-11-23'), now)).toBe(false);
    expect(isActive(code({ usedAt: at }), now)).toBe(false);
  });

  it('counts days in Europe/Zurich, not UTC', () => {
    // 23:30 UTC on the 24th is already the 25th in Zurich (UTC+1 in winter).
    const lateEvening = new Date('2026-11-24T23:30:00Z');
    expect(isActive(trip('2026-11-25', '2026-11-25'), lateEvening)).toBe(true);
    expect(isActive(trip('2026-11-24', '2026-11-24'), lateEvening)).toBe(false);
  });

  it('makes the status active during the trip and used after it; reimbursed and cancelled still win', () => {
    expect(statusOf(trip('2026-11-24', '2026-11-26'), now)).toBe('active');
    expect(flagsOf(trip('2026-11-24', '2026-11-26'), now)).toMatchObject({ isActive: true, isUsed: true });
    expect(statusOf(trip('2026-11-20', '2026-11-23'), now)).toBe('used');
    expect(statusOf(trip('2026-12-01', '2026-12-03'), now)).toBe('used');
    expect(statusOf({ ...trip('2026-11-24', '2026-11-26'), cancelledAt: at }, now)).toBe('cancelled');
    expect(statusOf({ ...trip('2026-11-24', '2026-11-26'), reimbursedAt: at, cancelledAt: at }, now)).toBe(
      'reimbursed',
    );
  });

  it('refuses every bulk move on a code whose trip runs', () => {
    const running = trip('2026-11-24', '2026-11-26');
    expect(skipReasonOf('cancel', running, now)).toBe('code_used');
    expect(skipReasonOf('reimburse', running, now)).toBe('code_used');
    expect(skipReasonOf('renew', running, now)).toBe('code_used');
  });
});

describe('tripStartRefusalOf', () => {
  const held = (flags: Partial<CodeFlags> = {}, claimedByUserId: string | null = 'u1') => ({
    ...code({ purchasedAt: at, ...flags }),
    claimedByUserId,
  });

  it('lets the holder start a trip on a purchased code that is not used, cancelled or expired', () => {
    expect(tripStartRefusalOf(held(), 'u1', now)).toBeNull();
    expect(tripStartRefusalOf(held({ expiresAt: future }), 'u1', now)).toBeNull();
  });

  it('answers not_claimed for an unknown code, a free one and one held by someone else', () => {
    expect(tripStartRefusalOf(null, 'u1', now)).toBe('not_claimed');
    expect(tripStartRefusalOf(held({}, null), 'u1', now)).toBe('not_claimed');
    expect(tripStartRefusalOf(held({}, 'u2'), 'u1', now)).toBe('not_claimed');
    // Even a cancelled code says nothing more to someone who does not hold it.
    expect(tripStartRefusalOf(held({ cancelledAt: at }, 'u2'), 'u1', now)).toBe('not_claimed');
  });

  it.each([
    ['code_reimbursed', { reimbursedAt: at, cancelledAt: at, usedAt: at }],
    ['code_cancelled', { cancelledAt: at, expiresAt: past }],
    ['code_used', { usedAt: at, expiresAt: past }],
    ['code_used', { usedAt: at, tripStartsOn: '2026-11-24', tripEndsOn: '2026-11-25' }],
    ['code_expired', { expiresAt: past }],
  ] as const)('answers %s by precedence for %j', (reason, flags) => {
    expect(tripStartRefusalOf(held(flags), 'u1', now)).toBe(reason);
  });
});
