import { corsOriginsOf } from './http';

describe('corsOriginsOf (D-79)', () => {
  const base = { CLIENT_APP_URL: 'http://localhost:5173/app/', CORS_ORIGINS: [] as string[] };

  it("allows the client app's origin in the local environment when no origin is set", () => {
    expect(corsOriginsOf({ ...base, APP_ENV: 'local' })).toEqual(['http://localhost:5173']);
  });

  it('keeps the origins set, in any environment', () => {
    const set = ['https://office.example.test'];
    expect(corsOriginsOf({ ...base, APP_ENV: 'local', CORS_ORIGINS: set })).toEqual(set);
    expect(corsOriginsOf({ ...base, APP_ENV: 'production', CORS_ORIGINS: set })).toEqual(set);
  });

  it('allows no origin outside the local environment when none is set', () => {
    expect(corsOriginsOf({ ...base, APP_ENV: 'production' })).toEqual([]);
    expect(corsOriginsOf({ ...base, APP_ENV: 'staging' })).toEqual([]);
  });
});
