import { invalidUtf8Parameters } from './query-bytes';

describe('invalidUtf8Parameters', () => {
  it('accepts UTF-8, plain text, plus signs and malformed escapes', () => {
    expect(invalidUtf8Parameters('search=Z%C3%BCrich+ski&size=8&category=a,b&x=%zz&flag')).toBeNull();
    expect(invalidUtf8Parameters('')).toBeNull();
  });

  it('names each parameter whose bytes are not UTF-8', () => {
    expect(invalidUtf8Parameters('search=%FF&destination=CH&category=%C3%28')).toEqual({
      search: ['search must be valid UTF-8 text.'],
      category: ['category must be valid UTF-8 text.'],
    });
    expect(invalidUtf8Parameters('info_density=%80')).toEqual({
      info_density: ['info_density must be valid UTF-8 text.'],
    });
    expect(invalidUtf8Parameters('%FF=1')).toEqual({
      query: ['query must be valid UTF-8 text; a parameter name is not.'],
    });
  });
});
