import { nearPointOf, providerChanges } from './provider-changes';

describe('providerChanges', () => {
  it('holds the fields sent; null clears a nullable one', () => {
    expect(providerChanges({})).toEqual({});
    expect(providerChanges({ name: 'Guides', city: null, latitude: 46.2, status: 'published' })).toEqual({
      name: 'Guides',
      city: null,
      latitude: 46.2,
      status: 'published',
    });
  });

  it('ignores what the update does not cover (the origin stays as created)', () => {
    const dto = { name: 'Guides', origin: 'imported', id: 'x' } as Parameters<typeof providerChanges>[0];
    expect(providerChanges(dto)).toEqual({ name: 'Guides' });
  });
});

describe('nearPointOf', () => {
  it('is a point only with both coordinates', () => {
    expect(nearPointOf({ latitude: 46.2, longitude: 6.14 })).toEqual({ latitude: 46.2, longitude: 6.14 });
    expect(nearPointOf({ latitude: 0, longitude: 0 })).toEqual({ latitude: 0, longitude: 0 });
    expect(nearPointOf({ latitude: 46.2 })).toBeNull();
    expect(nearPointOf({ longitude: 6.14 })).toBeNull();
    expect(nearPointOf({})).toBeNull();
  });
});
