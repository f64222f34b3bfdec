import { Resolver } from 'node:dns/promises';
import { evaluateRecordAssertions } from './assertions.ts';
import { describeError, withRetries } from './errors.ts';
import { outcomeOf, type CheckResult, type DnsMonitor } from './types.ts';

type RecordType = DnsMonitor['record_assertions'][number]['record'];
type Attempt = {
	failed: boolean;
	latency: number;
	error?: string;
	assertions?: CheckResult['assertions'];
};

// Spec 2.7 does not say what a name that does not exist means. We read it as most uptime
// products do: NXDOMAIN (Node's ENOTFOUND) fails the check whatever the assertions, with an
// error naming it, so `neq`/`not_contains` cannot pass on a domain that has lapsed or was never
// registered. An existing name without records of the asked-for type (NOERROR with no answer,
// NODATA: Node's ENODATA) is an answer, "no records", which the assertions judge.
class NoSuchDomain extends Error {
	constructor(host: string) {
		super(`DNS lookup failed: ENOTFOUND ${host} (no such domain)`);
	}
}

async function lookup(resolver: Resolver, host: string, record: RecordType): Promise<string[]> {
	try {
		switch (record) {
			case 'A':
				return await resolver.resolve4(host);
			case 'AAAA':
				return await resolver.resolve6(host);
			case 'CNAME':
				return await resolver.resolveCname(host);
			case 'MX':
				return (await resolver.resolveMx(host)).map((r) => r.exchange);
			case 'TXT':
				return (await resolver.resolveTxt(host)).map((parts) => parts.join(''));
		}
	} catch (err) {
		// "no such record" is an answer the assertions judge; anything else fails the check.
		const code = (err as NodeJS.ErrnoException).code;
		if (code === 'ENODATA') return [];
		if (code === 'ENOTFOUND') throw new NoSuchDomain(host);
		throw err;
	}
}

async function attempt(
	m: DnsMonitor,
	servers: string[] | undefined,
	budgetMs: number
): Promise<Attempt> {
	const start = performance.now();
	const resolver = new Resolver({ timeout: Math.max(1, Math.round(budgetMs)), tries: 1 });
	if (servers) resolver.setServers(servers);
	const types = [...new Set<RecordType>(m.record_assertions.map((a) => a.record))];
	try {
		const answers = Object.fromEntries(
			await Promise.all(
				(types.length ? types : (['A'] as RecordType[])).map(
					async (t) => [t, await lookup(resolver, m.uri, t)] as const
				)
			)
		);
		const latency = performance.now() - start;
		if (types.length === 0) {
			return answers.A.length
				? { failed: false, latency }
				: { failed: true, latency, error: `no A record for ${m.uri}` };
		}
		const assertions = evaluateRecordAssertions(m, answers);
		const failed = assertions.find((a) => !a.passed);
		return {
			failed: failed !== undefined,
			latency,
			assertions,
			error: failed
				? `assertion failed: ${failed.description} (got ${failed.actual || 'no record'})`
				: undefined
		};
	} catch (err) {
		const error = err instanceof NoSuchDomain ? err.message : describeError(err);
		return { failed: true, latency: performance.now() - start, error };
	} finally {
		resolver.cancel();
	}
}

// DNS check (spec 2.7). `servers` overrides the system resolver (e.g. ['127.0.0.1:5353']).
export async function checkDns(
	m: DnsMonitor,
	opts: { servers?: string[] } = {}
): Promise<CheckResult> {
	const startedAt = Date.now();
	const { result, attempts } = await withRetries(m.retry, m.timeout, (remaining) =>
		attempt(m, opts.servers, remaining)
	);
	const latency = Math.round(result.latency * 100) / 100;
	return {
		monitorId: m.id,
		type: 'dns',
		startedAt,
		latency,
		outcome: outcomeOf(m, result.failed, latency),
		attempts,
		error: result.error,
		timing: { dns: latency },
		assertions: result.assertions
	};
}
