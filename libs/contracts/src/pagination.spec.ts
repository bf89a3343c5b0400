import { paginated, toPage } from './pagination';
import { parseQueryBoolean } from './query-boolean';

describe('pagination', () => {
  it('caps per_page silently and computes the offset', () => {
    expect(toPage({ page: 3, per_page: 500 }, { maxPerPage: 100 })).toEqual({
      page: 3,
      perPage: 100,
      offset: 200,
      limit: 100,
    });
  });

  it('defaults to page 1 and the endpoint default', () => {
    expect(toPage({}, { maxPerPage: 100, defaultPerPage: 25 })).toEqual({
      page: 1,
      perPage: 25,
      offset: 0,
      limit: 25,
    });
  });

  it('builds the envelope with last_page at least 1', () => {
    const page = toPage({ page: 1, per_page: 10 }, { maxPerPage: 100 });
    expect(paginated([], 0, page).meta).toEqual({ total: 0, current_page: 1, per_page: 10, last_page: 1 });
    expect(paginated([1], 21, page).meta.last_page).toBe(3);
  });
});

describe('parseQueryBoolean', () => {
  it.each(['true', 'TRUE', '1', 'yes', 'On'])('%s is true', (value) =>
    expect(parseQueryBoolean(value)).toBe(true),
  );
  it.each(['false', '0', 'NO', 'off'])('%s is false', (value) =>
    expect(parseQueryBoolean(value)).toBe(false),
  );
  it('leaves anything else for the validator to refuse', () =>
    expect(parseQueryBoolean('maybe')).toBe('maybe'));
});
