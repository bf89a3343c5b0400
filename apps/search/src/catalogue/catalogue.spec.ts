import { embeddingTextOf, isLocalDateTime, toIndexedOffer } from './catalogue-record';
import { generateCatalogue, generateOffer, parseGeneratedSource } from './catalogue-generator';
import { RecordValidator } from './record-validator';
import schema from './travel-offer.schema.json';

describe('catalogue generator', () => {
  const validator = new RecordValidator();
  const catalogue = [...generateCatalogue({ count: 2000 })];

  it('is deterministic, and a shorter catalogue is a prefix of a longer one', () => {
    expect([...generateCatalogue({ count: 50 })]).toEqual(catalogue.slice(0, 50));
    expect(generateOffer(1999)).toEqual(catalogue[1999]);
    expect(generateOffer(0, { seed: 2 })).not.toEqual(catalogue[0]);
  });

  it('produces records that satisfy the schema, with unique ids', () => {
    for (const record of catalogue) expect(validator.check(record)).toEqual({ ok: true, record });
    expect(new Set(catalogue.map((record) => record.id)).size).toBe(2000);
  });

  it('is realistic: three languages with accents, many countries, nulls, flags, past and future departures', () => {
    const languages = new Set(catalogue.map((record) => record.language));
    expect([...languages].sort()).toEqual(['de', 'en', 'fr']);
    expect(new Set(catalogue.map((record) => record.destination?.code)).size).toBeGreaterThan(35);
    expect(catalogue.some((record) => /[àâçéèêëîïôûùüöäßÿñ]/i.test(record.name))).toBe(true);
    const share = (predicate: (r: (typeof catalogue)[number]) => boolean) =>
      catalogue.filter(predicate).length / catalogue.length;
    expect(share((r) => r.rating === null)).toBeGreaterThan(0.05);
    expect(share((r) => r.duration === null)).toBeGreaterThan(0.02);
    expect(share((r) => r.nextDeparture === null)).toBeGreaterThan(0.02);
    expect(share((r) => r.destination === null)).toBeGreaterThan(0.005);
    expect(share((r) => r.discountClub === true)).toBeGreaterThan(0.1);
    expect(share((r) => r.seaside === true)).toBeGreaterThan(0.1);
    expect(share((r) => r.isValid === false)).toBeGreaterThan(0.05);
    expect(share((r) => (r.departureDates ?? []).some((d) => d < '2026-11-01'))).toBeGreaterThan(0.3);
    expect(share((r) => (r.departureDates ?? []).some((d) => d > '2026-11-01'))).toBeGreaterThan(0.5);
  });

  it('reads generated sources', () => {
    expect(parseGeneratedSource('generated:2000')).toEqual({ count: 2000, seed: 1 });
    expect(parseGeneratedSource('generated:10:7')).toEqual({ count: 10, seed: 7 });
    expect(parseGeneratedSource('catalogue.ndjson')).toBeUndefined();
  });
});

describe('record validation', () => {
  const validator = new RecordValidator();
  const valid = generateOffer(0);

  it('validates the schema example', () => {
    expect(validator.check(schema.examples[0]).ok).toBe(true);
  });

  it.each([
    ['no id', { ...valid, id: undefined }],
    ['an empty name', { ...valid, name: '' }],
    ['a rating as text', { ...valid, rating: '4.5' }],
    ['a lower-case country code', { ...valid, destination: { code: 'fr', name: 'France' } }],
    ['a departure with an offset', { ...valid, departureDates: ['2027-01-01T08:00:00+01:00'] }],
    ['a departure not on the calendar', { ...valid, nextDeparture: '2027-02-30T08:00' }],
    ['a category without slug', { ...valid, categories: [{ name: 'Beach' }] }],
    ['a flag as text', { ...valid, seaside: 'yes' }],
    ['not an object', ['x']],
  ])('refuses %s', (_name, record) => {
    const check = validator.check(record);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.problems.length).toBeGreaterThan(0);
  });

  it('keeps unknown fields and defaults absent ones', () => {
    const offer = toIndexedOffer({
      id: 'X',
      name: 'N',
      slug: 's',
      departureDates: ['2027-01-02T08:00', '2027-01-01T07:00:00.5'],
    });
    expect(offer).toMatchObject({
      description: null,
      destinationCode: null,
      categories: [],
      rating: null,
      nextDeparture: null,
      departureDates: ['2027-01-01T07:00:00', '2027-01-02T08:00:00'],
      discountClub: false,
      seaside: false,
      isValid: false,
    });
    expect(embeddingTextOf(toIndexedOffer(valid))).toContain(valid.name);
    expect(isLocalDateTime('2028-02-29T23:59:59')).toBe(true);
    expect(isLocalDateTime('2027-02-29T23:59:59')).toBe(false);
    expect(isLocalDateTime('2027-01-01T24:00')).toBe(false);
  });
});
