import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The key of a client's bucket (docs/decisions.md D-73): an IPv4 client by its whole address, also
 * when it arrives written IPv4-mapped (`::ffff:198.51.100.7`, `::ffff:c633:6407`: a dual-stack
 * socket's spelling); a native IPv6 client by its /64 (`2001:db8:1:2::/64`), the smallest block a
 * site is given, so that one client cannot rotate through the 2^64 addresses of its own subnet to
 * get a fresh bucket each time. Anything else (no address known) keys as it is.
 */
export function clientKeyOf(address: string): string {
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const parsed = ipaddr.IPv6.parse(address);
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  return `${parsed.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
