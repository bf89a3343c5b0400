import { formatHat, parseHat } from './hat';

describe('hats', () => {
  const id = '6f1c1f8e-3f4a-4a57-9d3c-2b1e0f9a8c7d';

  it('parse the three kinds', () => {
    expect(parseHat('super-admin')).toEqual({ kind: 'super-admin' });
    expect(parseHat('traveller')).toEqual({ kind: 'traveller' });
    expect(parseHat(`organization:${id}`)).toEqual({ kind: 'organization', organizationId: id });
    expect(parseHat(`organization:${id.toUpperCase()}`)).toEqual({
      kind: 'organization',
      organizationId: id,
    });
  });

  it.each([
    undefined,
    null,
    42,
    ['traveller'],
    '',
    'Super-Admin',
    'SUPER-ADMIN',
    'admin',
    ' traveller',
    'traveller\n',
    'organization',
    'organization:',
    'organization:42',
    `organization:${id}x`,
    `organisation:${id}`,
    `organization: ${id}`,
    `traveller,organization:${id}`,
  ])('refuse %j', (value) => {
    expect(parseHat(value)).toBeNull();
  });

  it('format back to the header value', () => {
    for (const value of ['super-admin', 'traveller', `organization:${id}`])
      expect(formatHat(parseHat(value)!)).toBe(value);
  });
});
