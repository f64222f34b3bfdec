// Spec 4.2 rule 4: the redirect URIs a registered client may use. Pure, so it is unit-tested.
export type RedirectPolicy = {
	ownHosts: string[]; // the service's own hostnames (issuer and dashboard)
	domains: string[]; // vendor domains: the domain itself and any subdomain
	schemes: string[]; // editor applications' custom schemes, without ':'
};

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

function parse(uri: string): URL | null {
	try {
		const url = new URL(uri);
		return url.hash ? null : url;
	} catch {
		return null;
	}
}

export const isLoopback = (url: URL) =>
	(url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname);

export function isAllowedRedirectUri(uri: string, policy: RedirectPolicy): boolean {
	const url = parse(uri);
	if (!url || url.username || url.password) return false;
	if (isLoopback(url)) return true;
	if (url.protocol === 'https:') {
		const host = url.hostname.toLowerCase();
		if (policy.ownHosts.includes(host)) return true;
		return policy.domains.some((d) => host === d || host.endsWith(`.${d}`));
	}
	return policy.schemes.includes(url.protocol.slice(0, -1).toLowerCase());
}

// The redirect URI of a request against the client's list: exact, except that a loopback
// URI matches on everything but the port (RFC 8252 7.3: native apps pick a free port).
export function matchesRedirectUri(requested: string, registered: string[]): boolean {
	if (registered.includes(requested)) return true;
	const url = parse(requested);
	if (!url || !isLoopback(url)) return false;
	return registered.some((r) => {
		const candidate = parse(r);
		if (!candidate || !isLoopback(candidate)) return false;
		candidate.port = url.port;
		return candidate.href === url.href;
	});
}
