import { BlockList, isIP } from 'node:net';

// Which address a request comes from, for ip-restriction (spec 1.3.3). With no trusted proxy
// (hops 0) it is the socket's peer. Behind N proxies each appends the address it received the
// request from to X-Forwarded-For, so the client is the N-th entry from the right; anything
// further left was written by the client and is never trusted.
export function clientAddress(args: {
	socketAddress: string;
	forwardedFor: string | null;
	trustedProxyHops: number;
}): string | null {
	if (args.trustedProxyHops === 0) return normalize(args.socketAddress);
	const entries = (args.forwardedFor ?? '')
		.split(',')
		.map((e) => e.trim())
		.filter(Boolean);
	// Fewer entries than proxies: the request skipped a proxy we rely on, so we cannot tell.
	if (entries.length < args.trustedProxyHops) return null;
	return normalize(entries[entries.length - args.trustedProxyHops]);
}

// Proxies may write a port (`198.51.100.7:5555`, `[2001:db8::1]:443`); only the host is matched.
// A bare IPv6 address has colons too, so a port is stripped only after brackets or a dotted quad.
const normalize = (address: string) =>
	address
		.replace(/^\[([^\]]*)\](?::\d+)?$/, '$1')
		.replace(/^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/, '$1')
		.replace(/^::ffff:/i, '');

/**
 * Parses one `address/prefix` range (IPv4 or IPv6; no prefix means the single address), or null.
 * Shared with the write side's check (schemas.ts) so what is saved is what matches.
 */
export function parseRange(
	range: string
): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
	const [address, bits, extra] = range.trim().split('/');
	if (extra !== undefined) return null;
	const version = isIP(address);
	if (version === 0) return null;
	const max = version === 4 ? 32 : 128;
	const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
	if (!(prefix >= 0 && prefix <= max)) return null;
	return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

// `ranges` is the page's comma-separated CIDR list, IPv4 and IPv6 alike (node:net's BlockList
// matches an IPv4-mapped IPv6 client against IPv4 ranges too).
export function isInRanges(ip: string | null, ranges: string): boolean {
	const family = ip === null ? 0 : isIP(ip);
	if (ip === null || family === 0) return false;
	const list = new BlockList();
	for (const r of ranges.split(',')) {
		const range = r.trim() ? parseRange(r) : null;
		if (range) list.addSubnet(range.address, range.prefix, range.family);
	}
	return list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}
