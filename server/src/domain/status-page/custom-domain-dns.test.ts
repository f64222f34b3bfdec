import { randomUUID } from 'node:crypto';
import dns2 from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../test/db.ts';
import { createWorkspace, ctxFor, TEAM_LIMITS } from '../../../test/factories.ts';
import { createTestUpstate } from '../../../test/upstate.ts';
import { toServiceError } from '../../router/errors.ts';
import { createCaller } from '../../router/root.ts';
import { checkCustomDomainDns, checksCustomDomainDns } from './custom-domain-dns.ts';

// A real DNS server on 127.0.0.1: status.test is the status site (10.0.0.5), and names that
// point at it (or not) in each way a domain can.
const ZONE: Record<string, { A?: string; CNAME?: string } | undefined> = {
	'status.test': { A: '10.0.0.5' },
	'status.acme.test': { CNAME: 'status.test' },
	'two-hops.acme.test': { CNAME: 'alias.acme.test' },
	'alias.acme.test': { CNAME: 'status.test' },
	'acme.test': { A: '10.0.0.5' },
	'elsewhere.acme.test': { A: '192.0.2.1' },
	'loop.acme.test': { CNAME: 'loop.acme.test' }
};

describe('custom domain DNS check', () => {
	const { Packet } = dns2;
	let server: ReturnType<typeof dns2.createServer>;
	let servers: string[];
	beforeAll(async () => {
		server = dns2.createServer({
			udp: true,
			handle: (request, send) => {
				const response = Packet.createResponseFromRequest(request);
				const [q] = request.questions;
				const base = { name: q.name, class: Packet.CLASS.IN, ttl: 60 };
				const entry = ZONE[q.name];
				// dns2 encodes plain answer objects; its types want its own class.
				const answer = (r: object) => response.answers.push(r as never);
				if (!entry) response.header.rcode = Packet.RCODE.NXDOMAIN;
				else if (q.type === Packet.TYPE.CNAME && entry.CNAME)
					answer({ ...base, type: Packet.TYPE.CNAME, domain: entry.CNAME });
				else if (q.type === Packet.TYPE.A && entry.A)
					answer({ ...base, type: Packet.TYPE.A, address: entry.A });
				else if (q.type === Packet.TYPE.A && entry.CNAME) {
					// As a recursive resolver answers: the alias, then the target's address.
					answer({ ...base, type: Packet.TYPE.CNAME, domain: entry.CNAME });
					const target = ZONE[entry.CNAME]?.A;
					if (target) answer({ ...base, name: entry.CNAME, type: Packet.TYPE.A, address: target });
				}
				send(response);
			}
		});
		await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
		servers = [`127.0.0.1:${(server.addresses().udp as { port: number }).port}`];
	});
	afterAll(() => server.close());

	const check = (domain: string) =>
		checkCustomDomainDns(domain, { statusHost: 'status.test', servers, timeoutMs: 500 });

	it('accepts a CNAME to the status host, directly or through another alias', async () => {
		await expect(check('status.acme.test')).resolves.toBeUndefined();
		await expect(check('two-hops.acme.test')).resolves.toBeUndefined();
	});

	it('accepts an apex whose A record is one of the status host addresses', async () => {
		await expect(check('acme.test')).resolves.toBeUndefined();
	});

	it('refuses a domain pointing elsewhere, saying which record to add', async () => {
		await expect(check('elsewhere.acme.test')).rejects.toMatchObject({
			code: 'VALIDATION',
			message:
				'custom_domain: elsewhere.acme.test does not point at this service yet: add a CNAME record for elsewhere.acme.test to status.test (or A/AAAA records to its addresses), then save again'
		});
	});

	it('refuses a domain without records, and a CNAME loop', async () => {
		await expect(check('unclaimed.example.test')).rejects.toMatchObject({
			code: 'VALIDATION',
			message: expect.stringContaining('unclaimed.example.test has no DNS records yet')
		});
		await expect(check('loop.acme.test')).rejects.toMatchObject({ code: 'VALIDATION' });
	});

	it('says to try again when DNS cannot answer', async () => {
		// Nothing listens on this port: the lookup times out.
		const silent = await checkCustomDomainDns('status.acme.test', {
			statusHost: 'status.test',
			servers: ['127.0.0.1:9'],
			timeoutMs: 100
		}).catch((err: Error) => err);
		expect(silent).toMatchObject({
			code: 'VALIDATION',
			message: expect.stringMatching(/could not look up status\.acme\.test in DNS .*try again/)
		});
	});

	it('applies only to a status site with a domain name of its own', () => {
		expect(checksCustomDomainDns('status.example.com')).toBe(true);
		expect(checksCustomDomainDns('localhost')).toBe(false);
		expect(checksCustomDomainDns('statusbox')).toBe(false);
		expect(checksCustomDomainDns('127.0.0.1')).toBe(false);
		expect(checksCustomDomainDns('::1')).toBe(false);
	});

	// "CODE: message" of a failed router call.
	const codeOf = async (p: Promise<unknown>) => {
		const e = toServiceError(
			await p.then(
				() => expect.fail('expected a failure'),
				(err) => err
			)
		);
		return `${e.code}: ${e.message}`;
	};

	// Through the router, configured as a deployment is (STATUS_PAGE_URL, CUSTOM_DOMAIN_*).
	async function pagesApi(env: Record<string, string> = {}) {
		const { db } = await createTestDb();
		const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'custom-domain': true } });
		const upstate = createTestUpstate(db, {
			STATUS_PAGE_URL: 'https://status.test',
			CUSTOM_DOMAIN_DNS_SERVERS: servers.join(','),
			...env
		});
		const service = ctxFor(db, ws);
		const caller = createCaller({
			upstate,
			db,
			requestId: randomUUID(),
			user: null,
			sessionId: null,
			service
		});
		return caller.statusPage;
	}

	it('is asked by create and by an update that changes the domain, not by other updates', async () => {
		const pages = await pagesApi();
		const slug = `dns-${Date.now()}`;
		expect(
			await codeOf(pages.create({ title: 'A', slug, custom_domain: 'elsewhere.acme.test' }))
		).toMatch(/^VALIDATION: custom_domain: elsewhere.acme.test does not point at this service/);
		const page = await pages.create({ title: 'A', slug, custom_domain: 'status.acme.test' });
		expect(page.custom_domain).toBe('status.acme.test');

		// The owner moves DNS away: saving anything else still works (the domain is not re-checked).
		const saved = ZONE['status.acme.test'];
		ZONE['status.acme.test'] = { A: '192.0.2.9' };
		try {
			expect(
				(await pages.update({ pageId: page.id, title: 'B', custom_domain: 'status.acme.test' }))
					.title
			).toBe('B');
			const moved = await pages.update({ pageId: page.id, custom_domain: 'two-hops.acme.test' });
			expect(moved.custom_domain).toBe('two-hops.acme.test');
			expect(
				await codeOf(pages.update({ pageId: page.id, custom_domain: 'elsewhere.acme.test' }))
			).toMatch(/^VALIDATION: custom_domain: elsewhere.acme.test does not point/);
		} finally {
			ZONE['status.acme.test'] = saved;
		}
	});

	it('is skipped with CUSTOM_DOMAIN_SKIP_DNS_CHECK (a CDN answering for the domains)', async () => {
		const pages = await pagesApi({ CUSTOM_DOMAIN_SKIP_DNS_CHECK: 'true' });
		const page = await pages.create({
			title: 'A',
			slug: `dns-skip-${Date.now()}`,
			custom_domain: 'elsewhere.acme.test'
		});
		expect(page.custom_domain).toBe('elsewhere.acme.test');
	});
});
