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

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipv4ToInt(ip: string): number | null {
	const m = IPV4.exec(ip);
	if (!m) return null;
	const parts = m.slice(1).map(Number);
	if (parts.some((p) => p > 255)) return null;
	return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
}

// `ranges` is the page's comma-separated IPv4 CIDR list; IPv6 clients never match.
export function isInRanges(ip: string | null, ranges: string): boolean {
	const addr = ip === null ? null : ipv4ToInt(ip);
	if (addr === null) return false;
	return ranges
		.split(',')
		.map((r) => r.trim())
		.filter(Boolean)
		.some((range) => {
			const [base, bits] = range.split('/');
			const net = ipv4ToInt(base);
			const size = Number(bits ?? 32);
			if (net === null || !(size >= 0 && size <= 32)) return false;
			const mask = size === 0 ? 0 : (~0 << (32 - size)) >>> 0;
			return (addr & mask) >>> 0 === (net & mask) >>> 0;
		});
}
