import { clientKeyOf } from './client-key';

describe('clientKeyOf', () => {
  it.each([
    ['an IPv4 address', '198.51.100.7', '198.51.100.7'],
    ['an IPv4-mapped address, dotted', '::ffff:198.51.100.7', '198.51.100.7'],
    ['an IPv4-mapped address, in hex', '::ffff:c633:6407', '198.51.100.7'],
    ['the loopback, IPv4-mapped in hex', '::ffff:7f00:1', '127.0.0.1'],
    ['an IPv4-mapped address, written in full', '0:0:0:0:0:FFFF:198.51.100.7', '198.51.100.7'],
    ['an IPv6 address', '2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['another address of that /64', '2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['an address of that /64 compressed', '2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['an address of the next /64', '2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['a /64 ending in zeros', '2001:db8::1', '2001:db8:0:0::/64'],
    ['a link-local address with its zone', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['the IPv6 loopback', '::1', '0:0:0:0::/64'],
    ['no address', 'unknown', 'unknown'],
  ])('keys %s (%s) as %s', (_shape, address, key) => {
    expect(clientKeyOf(address)).toBe(key);
  });
});
