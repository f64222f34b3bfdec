// `host:port` with IPv6 in brackets (spec 2.6, 2.9), as validated by the server.
export function splitHostPort(uri: string): { host: string; port: number } {
	const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(uri);
	if (!m) throw new Error(`not host:port: ${uri}`);
	return { host: m[1] ?? m[2], port: Number(m[3]) };
}
