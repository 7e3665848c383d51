import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { clientAddress } from '../client-address';

const from = (ip: string) => clientAddress({ ip, socket: {} } as unknown as Request);

describe('clientAddress', () => {
  it('when the address is IPv4 or IPv4 mapped into IPv6, then it is the IPv4 address', () => {
    expect(from('203.0.113.7')).toBe('203.0.113.7');
    expect(from('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('when the address is IPv6, then every address of one /64 network counts as one', () => {
    expect(from('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(from('2001:DB8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(from('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(from('::1')).toBe('0:0:0:0::/64');
    expect(from('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(from('2001:db8:1:3::1')).not.toBe(from('2001:db8:1:2::1'));
  });
});
