import { countFilterListing } from './offer-facets';
import { OfferFilterColumnsBuilder } from './offer-filters';

/** Eight offers by ordinal: destination GR or none, categories beach/ski (one listed twice). */
function columns() {
  const builder = new OfferFilterColumnsBuilder();
  for (let o = 0; o < 8; o++) {
    builder.add({
      destination: o % 4 === 3 ? null : 'GR',
      categories: o % 2 === 0 ? ['beach', 'beach'] : ['ski', 'beach'],
      departureDays: '{}',
      isValid: true,
      discountClub: o < 3,
      seaside: false,
    });
  }
  return builder.build();
}

const ALL = ['category', 'destination', 'discountclub', 'seaside'] as const;
const asObject = (counts: Map<string, number> | undefined) => Object.fromEntries(counts ?? []);

describe('countFilterListing', () => {
  it('counts every offer passing the filters, each value once per offer', () => {
    const { total, facets } = countFilterListing(columns(), {}, ALL);
    expect(total).toBe(8);
    expect(facets.relation).toBe('eq');
    expect(asObject(facets.counts.category)).toEqual({ beach: 8, ski: 4 });
    expect(asObject(facets.counts.destination)).toEqual({ GR: 6 });
    expect(asObject(facets.counts.discountclub)).toEqual({ true: 3, false: 5 });
    expect(asObject(facets.counts.seaside)).toEqual({ false: 8 });
  });

  it('applies the filters, the field its own filter restricts included', () => {
    const { total, facets } = countFilterListing(columns(), { categories: ['ski'] }, ['category']);
    expect(total).toBe(4);
    expect(asObject(facets.counts.category)).toEqual({ beach: 4, ski: 4 });
    expect(Object.keys(facets.counts)).toEqual(['category']);
  });

  it('stops at the count limit, the facets of the bound’s first offers in ordinal order marked gte', () => {
    const bounded = countFilterListing(columns(), {}, ['discountclub'], 5);
    expect(bounded.total).toBe(5);
    expect(bounded.facets.relation).toBe('gte');
    expect(asObject(bounded.facets.counts.discountclub)).toEqual({ true: 3, false: 1 });
    const below = countFilterListing(columns(), { discountClub: true }, ['discountclub'], 5);
    expect(below).toMatchObject({ total: 3, facets: { relation: 'eq' } });
  });

  it('names the filter values no offer holds, and counts nothing for an absent destination', () => {
    const { total, facets } = countFilterListing(
      columns(),
      { destination: 'ZZ', categories: ['skiing', 'beach'] },
      ['seaside'],
    );
    expect(total).toBe(0);
    expect(asObject(facets.counts.seaside)).toEqual({});
    expect(facets.unknownFilterValues).toEqual({ category: ['skiing'], destination: ['ZZ'] });
  });
});
