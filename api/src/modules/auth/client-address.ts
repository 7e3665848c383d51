import { isIPv6 } from 'node:net';
import type { Request } from 'express';

/** The eight 16-bit groups of an IPv6 address, `::` expanded. */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right];
}

/**
 * The address the sign-in and captcha limits count by: the browser's address as the gateway
 * reported it (express `req.ip`, which believes X-Forwarded-For only from TRUST_PROXY hops).
 * An IPv4 address mapped into IPv6 is the IPv4 address; an IPv6 address counts by its /64
 * network, since one subscriber usually holds a whole /64 and could otherwise take a new
 * address for every guess.
 */
export function clientAddress(req: Request): string {
  let address = (req.ip ?? req.socket.remoteAddress ?? 'unknown').toLowerCase();
  if (address.startsWith('::ffff:') && address.includes('.')) address = address.slice(7);
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address.split('%')[0]);
  if (groups.length !== 8) return address;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
