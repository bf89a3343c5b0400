import { tagChanges, tagNameFields } from './tag-changes';

describe('tagNameFields', () => {
  it('stores an absent English or German name as null', () => {
    expect(tagNameFields({ fr: 'Randonnée', en: 'Hiking', de: 'Wandern' })).toEqual({
      nameFr: 'Randonnée',
      nameEn: 'Hiking',
      nameDe: 'Wandern',
    });
    expect(tagNameFields({ fr: 'Randonnée' })).toEqual({ nameFr: 'Randonnée', nameEn: null, nameDe: null });
    expect(tagNameFields({ fr: 'Randonnée', en: null })).toEqual({
      nameFr: 'Randonnée',
      nameEn: null,
      nameDe: null,
    });
  });
});

describe('tagChanges', () => {
  it('holds the fields sent', () => {
    expect(tagChanges({})).toEqual({});
    expect(tagChanges({ type: 'restriction', icon: 'dog' })).toEqual({ type: 'restriction', icon: 'dog' });
  });

  it('replaces the three names together: a name left out is cleared', () => {
    expect(tagChanges({ names: { fr: 'Vélo', de: 'Velo' } })).toEqual({
      nameFr: 'Vélo',
      nameEn: null,
      nameDe: 'Velo',
    });
  });
});
