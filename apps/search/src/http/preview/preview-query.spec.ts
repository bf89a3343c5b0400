// The preview page's query (apps/search/preview-ui/src/query.ts): what its controls send to
// `GET /travels`, and the page address that keeps them.
import {
  EMPTY_QUERY,
  fromPageParams,
  toPageParams,
  toSearchParams,
  toTravelsQuery,
  type PreviewQuery,
} from '../../../preview-ui/src/query';

const query = (changes: Partial<PreviewQuery>): PreviewQuery => ({ ...EMPTY_QUERY, ...changes });

describe('the preview page’s query of GET /travels', () => {
  it('asks for the first page of full records without any filter', () => {
    expect(toTravelsQuery(EMPTY_QUERY)).toEqual({
      infoDensity: 'full',
      page: 1,
      size: 8,
      facets: 'category,destination',
    });
  });

  it('asks a search for its explanation, with the fusion knobs moved and without the order', () => {
    const travels = toTravelsQuery(
      query({
        search: 'wanderung am see',
        orderBy: 'rating',
        orderDirection: 'desc',
        fusion: { rrfVectorWeight: 0.5, semanticFloor: null, tsvectorFloor: 0 },
      }),
    );
    expect(travels).toEqual({
      infoDensity: 'full',
      page: 1,
      size: 8,
      facets: 'category,destination',
      search: 'wanderung am see',
      explain: true,
      rrfVectorWeight: 0.5,
      tsvectorFloor: 0,
    });
  });

  it('orders a listing without a search, and leaves the fusion knobs out of it', () => {
    const travels = toTravelsQuery(
      query({
        search: '   ',
        orderBy: 'departure',
        orderDirection: 'desc',
        fusion: { rrfVectorWeight: 0.5, semanticFloor: 0.3, tsvectorFloor: 2 },
      }),
    );
    expect(travels).toEqual({
      infoDensity: 'full',
      page: 1,
      size: 8,
      facets: 'category,destination',
      orderBy: 'departure',
      orderDirection: 'desc',
    });
  });

  it('writes the filters as the API takes them', () => {
    const travels = toTravelsQuery(
      query({
        destination: 'IT',
        categories: ['hiking', 'city-break'],
        dateFrom: '2027-05-01',
        dateTo: '2027-04-01',
        hideInvalid: true,
        discountclub: 'no',
        seaside: 'yes',
      }),
    );
    expect(toSearchParams(travels).toString()).toBe(
      'infoDensity=full&page=1&size=8&facets=category%2Cdestination&destination=IT&category=hiking%2Ccity-break' +
        '&dates=2027-04-01_2027-05-01&hide_invalid=true&discountclub=false&seaside=true',
    );
  });

  it('takes one date alone as that day', () => {
    expect(toTravelsQuery(query({ dateTo: '2027-02-14' })).dates).toBe('2027-02-14_2027-02-14');
  });
});

describe('the preview page’s address', () => {
  it('is bare for the first page of everything', () => {
    expect(toPageParams(EMPTY_QUERY).toString()).toBe('');
  });

  it('gives back the controls it was written from', () => {
    const controls = query({
      search: 'lac léman',
      destination: 'CH',
      categories: ['wellness'],
      dateFrom: '2027-01-01',
      dateTo: '2027-01-31',
      discountclub: 'yes',
      seaside: 'no',
      orderBy: 'duration',
      orderDirection: 'desc',
      infoDensity: 'card',
      size: 24,
      page: 3,
      fusion: { rrfVectorWeight: 0.2, semanticFloor: 0, tsvectorFloor: 4.5 },
    });
    expect(fromPageParams(new URLSearchParams(toPageParams(controls).toString()))).toEqual(controls);
  });

  it('falls back to the defaults for values the page does not offer', () => {
    const params = new URLSearchParams(
      'destination=France&infoDensity=huge&size=7&page=0&orderBy=price&rrfVectorWeight=2&seaside=maybe',
    );
    expect(fromPageParams(params)).toEqual(EMPTY_QUERY);
  });
});
