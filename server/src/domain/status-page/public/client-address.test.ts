import { describe, expect, it } from 'vitest';
import { clientAddress, isInRanges, parseRange } from './client-address.ts';

describe('clientAddress', () => {
	it('uses the socket address when no proxy is trusted, ignoring the header', () => {
		expect(
			clientAddress({
				socketAddress: '::ffff:203.0.113.9',
				forwardedFor: '10.0.0.1',
				trustedProxyHops: 0
			})
		).toBe('203.0.113.9');
	});
	it('takes the entry appended by the nearest trusted proxy, never the left-most', () => {
		const forwardedFor = '10.0.0.1, 198.51.100.7';
		expect(clientAddress({ socketAddress: '127.0.0.1', forwardedFor, trustedProxyHops: 1 })).toBe(
			'198.51.100.7'
		);
		expect(clientAddress({ socketAddress: '127.0.0.1', forwardedFor, trustedProxyHops: 2 })).toBe(
			'10.0.0.1'
		);
	});
	it('strips a port and IPv6 brackets from the entry it takes, still counting from the right', () => {
		const at = (forwardedFor: string, trustedProxyHops = 1) =>
			clientAddress({ socketAddress: '127.0.0.1', forwardedFor, trustedProxyHops });
		expect(at('198.51.100.7:5555')).toBe('198.51.100.7');
		expect(at('[2001:db8::1]:443')).toBe('2001:db8::1');
		expect(at('[2001:db8::1]')).toBe('2001:db8::1');
		expect(at('2001:db8::1')).toBe('2001:db8::1');
		expect(at('[::ffff:198.51.100.7]:80')).toBe('198.51.100.7');
		// A spoofed left-most entry with a port changes nothing: the nearest proxy's entry wins.
		expect(at('10.0.0.1:1, 203.0.113.9:5555')).toBe('203.0.113.9');
		expect(at('10.0.0.1:1, [2001:db8::2]:8443, 203.0.113.9', 2)).toBe('2001:db8::2');
		expect(isInRanges(at('10.1.2.3:5555'), '10.0.0.0/8')).toBe(true);
		expect(isInRanges(at('203.0.113.9:5555, 10.1.2.3:1'), '203.0.113.0/24')).toBe(false);
	});
	it('returns null when the header has fewer entries than trusted proxies', () => {
		expect(
			clientAddress({ socketAddress: '127.0.0.1', forwardedFor: null, trustedProxyHops: 1 })
		).toBeNull();
	});
});

describe('isInRanges', () => {
	it('matches IPv4 CIDRs', () => {
		expect(isInRanges('10.1.2.3', '192.168.0.0/16, 10.0.0.0/8')).toBe(true);
		expect(isInRanges('11.1.2.3', '10.0.0.0/8')).toBe(false);
		expect(isInRanges('203.0.113.9', '203.0.113.9/32')).toBe(true);
		expect(isInRanges('1.2.3.4', '0.0.0.0/0')).toBe(true);
		expect(isInRanges('::1', '0.0.0.0/0')).toBe(false);
		expect(isInRanges(null, '0.0.0.0/0')).toBe(false);
		expect(isInRanges('not an address', '0.0.0.0/0')).toBe(false);
	});
	it('matches IPv6 clients against IPv6 CIDRs, and IPv4-mapped ones against IPv4 CIDRs', () => {
		expect(isInRanges('2001:db8::1', '2001:db8::/32')).toBe(true);
		expect(isInRanges('2001:db9::1', '2001:db8::/32')).toBe(false);
		expect(isInRanges('2001:db8::1', '10.0.0.0/8, 2001:db8::1/128')).toBe(true);
		expect(isInRanges('::1', '::/0')).toBe(true);
		expect(isInRanges('10.1.2.3', '::ffff:0:0/96')).toBe(true); // IPv4 as mapped addresses
		expect(isInRanges('10.1.2.3', '2001:db8::/32')).toBe(false);
		expect(isInRanges('::ffff:10.1.2.3', '10.0.0.0/8')).toBe(true);
		// A malformed entry is skipped, never widened.
		expect(isInRanges('10.1.2.3', '10.0.0.0/99, 2001:db8::/200')).toBe(false);
	});
});

describe('parseRange', () => {
	it('reads IPv4 and IPv6 ranges and refuses what is not one', () => {
		expect(parseRange('10.0.0.0/8')).toEqual({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
		expect(parseRange(' 2001:db8::/48 ')).toEqual({
			address: '2001:db8::',
			prefix: 48,
			family: 'ipv6'
		});
		for (const bad of [
			'10.0.0.0/33',
			'2001:db8::/129',
			'10.0.0/8',
			'x/8',
			'10.0.0.0/8/1',
			'1.2.3.4/-1'
		])
			expect(parseRange(bad)).toBeNull();
	});
});
