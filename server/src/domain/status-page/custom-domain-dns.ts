import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ValidationError } from '../errors.ts';

/**
 * Spec 2.12: a custom domain's DNS must point at the service first. Checked when a page takes a
 * domain, so nobody claims one they do not control (it would go live the moment its owner
 * pointed it here). It points here when its CNAME chain reaches the status site's host, or when
 * its addresses include one of that host's (an apex domain cannot be a CNAME).
 */
export type CustomDomainDns = {
	statusHost: string; // host of STATUS_PAGE_URL
	servers?: string[]; // resolvers to ask (ip or ip:port); the system's when empty
	timeoutMs?: number;
};

const MAX_CNAME_HOPS = 8;

// Nothing outside can point at `localhost` or a bare name: the check applies to a status site
// with a domain name of its own.
export const checksCustomDomainDns = (statusHost: string): boolean =>
	isIP(statusHost) === 0 && statusHost.includes('.') && statusHost !== 'localhost';

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

// DNS answers where "no such record" is an answer, not a failure.
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND']);

async function records(lookup: () => Promise<string[]>): Promise<string[]> {
	try {
		return (await lookup()).map(bare);
	} catch (err) {
		if (NO_RECORD.has((err as NodeJS.ErrnoException).code ?? '')) return [];
		throw err;
	}
}

async function cnameChain(resolver: Resolver, domain: string): Promise<string[]> {
	const chain: string[] = [];
	let name = domain;
	for (let hop = 0; hop < MAX_CNAME_HOPS; hop++) {
		const [target] = await records(() => resolver.resolveCname(name));
		if (!target || chain.includes(target)) break;
		chain.push(target);
		name = target;
	}
	return chain;
}

async function addresses(resolver: Resolver, host: string): Promise<string[]> {
	if (isIP(host)) return [host];
	const [v4, v6] = await Promise.all([
		records(() => resolver.resolve4(host)),
		records(() => resolver.resolve6(host))
	]);
	return [...v4, ...v6];
}

const invalid = (message: string) =>
	new ValidationError(`custom_domain: ${message}`, [{ path: 'custom_domain', message }]);

/**
 * Throws VALIDATION, saying what record to add, unless `domain` points at the status site (or
 * the status site has no domain name to point at).
 */
export async function checkCustomDomainDns(domain: string, opts: CustomDomainDns): Promise<void> {
	const statusHost = bare(opts.statusHost);
	if (!checksCustomDomainDns(statusHost)) return;
	const resolver = new Resolver({ timeout: opts.timeoutMs ?? 3000, tries: 2 });
	if (opts.servers?.length) resolver.setServers(opts.servers);
	const howTo = `add a CNAME record for ${domain} to ${statusHost} (or A/AAAA records to its addresses), then save again`;
	try {
		if ((await cnameChain(resolver, domain)).includes(statusHost)) return;
		const [theirs, ours] = await Promise.all([
			addresses(resolver, domain),
			addresses(resolver, statusHost)
		]);
		if (theirs.length === 0) throw invalid(`${domain} has no DNS records yet: ${howTo}`);
		if (!theirs.some((a) => ours.includes(a)))
			throw invalid(`${domain} does not point at this service yet: ${howTo}`);
	} catch (err) {
		if (err instanceof ValidationError) throw err;
		const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
		throw invalid(
			`could not look up ${domain} in DNS (${code}); try again in a minute (a server without DNS can turn this check off: CUSTOM_DOMAIN_SKIP_DNS_CHECK=true)`
		);
	}
}
