import { invalidUtf8Parameters } from './query-bytes';

describe('invalidUtf8Parameters', () => {
  it('accepts UTF-8, plain text, plus signs and malformed escapes', () => {
    expect(invalidUtf8Parameters('search=Z%C3%BCrich+ski&size=8&category=a,b&x=%zz&flag')).toBeNull();
    expect(invalidUtf8Parameters('')).toBeNull();
  });

  it('names each parameter whose bytes are not UTF-8', () => {
    expect(invalidUtf8Parameters('search=%FF&destination=CH&category=%C3%28')).toEqual({
      search: ['The search field must be valid UTF-8 text.'],
      category: ['The category field must be valid UTF-8 text.'],
    });
    expect(invalidUtf8Parameters('info_density=%80')).toEqual({
      info_density: ['The info density field must be valid UTF-8 text.'],
    });
    expect(invalidUtf8Parameters('%FF=1')).toEqual({ query: ['The query string must be valid UTF-8 text.'] });
  });
});
