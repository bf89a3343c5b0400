import { tourChanges, tourOrganizationProblems } from './tour-changes';

describe('tourChanges', () => {
  it('holds the fields sent, under the row names', () => {
    expect(tourChanges({})).toEqual({});
    expect(
      tourChanges({ name: 'Alps loop', color: '#1A2B3C', status: 'active', partner_organization_id: 'p' }),
    ).toEqual({ name: 'Alps loop', color: '#1A2B3C', status: 'active', partnerOrganizationId: 'p' });
  });

  it('keeps the region link when the region is absent, clears it with null', () => {
    expect(tourChanges({ name: 'x' })).not.toHaveProperty('regionOrganizationId');
    expect(tourChanges({ region_organization_id: null })).toEqual({ regionOrganizationId: null });
    expect(tourChanges({ region_organization_id: 'r' })).toEqual({ regionOrganizationId: 'r' });
  });
});

describe('tourOrganizationProblems', () => {
  it('accepts an existing partner of any type and a region of type region, or none named', () => {
    expect(tourOrganizationProblems(undefined, undefined)).toEqual({});
    expect(tourOrganizationProblems('reseller', 'region')).toEqual({});
    expect(tourOrganizationProblems('region', undefined)).toEqual({});
  });

  it('refuses an unknown partner, an unknown region and a region of another type', () => {
    expect(tourOrganizationProblems(null, undefined)).toEqual({
      partner_organization_id: ['The selected partner organization id is invalid.'],
    });
    expect(tourOrganizationProblems(undefined, null)).toEqual({
      region_organization_id: ['The selected region organization id is invalid.'],
    });
    expect(tourOrganizationProblems(null, 'reseller')).toEqual({
      partner_organization_id: ['The selected partner organization id is invalid.'],
      region_organization_id: ['The region organization id field must name an organization of type region.'],
    });
  });
});
