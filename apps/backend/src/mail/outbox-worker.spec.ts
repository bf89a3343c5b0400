import { messageIdOf, retryDelaySeconds } from './outbox-worker';

describe('retryDelaySeconds', () => {
  it('doubles the wait after each failed attempt, from the base', () => {
    expect([1, 2, 3, 4, 5].map((attempts) => retryDelaySeconds(30, attempts))).toEqual([
      30, 60, 120, 240, 480,
    ]);
  });

  it('caps the wait at six hours', () => {
    expect(retryDelaySeconds(30, 20)).toBe(6 * 3600);
    expect(retryDelaySeconds(30, 1000)).toBe(6 * 3600);
  });
});

describe('messageIdOf', () => {
  const id = '0b7e0a52-54a4-4b8e-9d0b-1f0c2f9a6c3e';

  it('puts the outbox row on the domain of the sender address', () => {
    expect(messageIdOf(id, 'Road Trip <no-reply@Mail.Road-Trip.ch>')).toBe(`<${id}@mail.road-trip.ch>`);
    expect(messageIdOf(id, 'no-reply@road-trip.ch')).toBe(`<${id}@road-trip.ch>`);
  });

  it('falls back to localhost for a sender without a domain', () => {
    expect(messageIdOf(id, 'Road Trip')).toBe(`<${id}@localhost>`);
  });
});
