import net from 'node:net';
import dns2 from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portOf } from '../../test/servers.ts';
import { checkDns } from './dns.ts';
import { checkIcmp } from './icmp.ts';
import { runCheck } from './index.ts';
import { checkTcp } from './tcp.ts';
import type { DnsMonitor } from './types.ts';

const common = {
	id: 1,
	name: 'm',
	periodicity: '1m' as const,
	timeout: 3000,
	degraded_at: null,
	retry: 0
};

describe('tcp check', () => {
	let server: net.Server;
	beforeAll(async () => {
		server = net.createServer((s) => s.end());
		await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	});
	afterAll(() => server.close());

	it('connects, and reports a refused port after its retries', async () => {
		const ok = await checkTcp({ ...common, type: 'tcp', uri: `127.0.0.1:${portOf(server)}` });
		expect(ok).toMatchObject({ outcome: 'success', attempts: 1 });
		expect(ok.timing?.connect).toBeGreaterThanOrEqual(0);
		const refused = await checkTcp({ ...common, type: 'tcp', uri: '127.0.0.1:1', retry: 2 });
		expect(refused).toMatchObject({ outcome: 'error', error: 'connection refused', attempts: 3 });
		const localhost = await checkTcp({
			...common,
			type: 'tcp',
			uri: `localhost:${portOf(server)}`
		});
		expect(localhost.timing?.dns).toBeGreaterThanOrEqual(0);
	});

	it('reads timeout 0 as the default budget (spec 2.4): neither a timeout nor degraded', async () => {
		const uri = `127.0.0.1:${portOf(server)}`;
		const r = await runCheck({ ...common, type: 'tcp', uri, timeout: 0 });
		expect(r).toMatchObject({ outcome: 'success', attempts: 1 });
	});

	it('turns a check that throws into an error result naming what went wrong', async () => {
		const r = await runCheck({ ...common, id: 9, type: 'tcp', uri: 'no-port-here' });
		expect(r).toMatchObject({
			monitorId: 9,
			type: 'tcp',
			outcome: 'error',
			attempts: 1,
			error: 'check crashed: not host:port: no-port-here'
		});
	});
});

describe('dns check', () => {
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
				// safe because dns2 encodes plain answer objects; its types want its own class
				const answer = (r: object) => response.answers.push(r as never);
				if (q.name === 'example.test') {
					if (q.type === Packet.TYPE.A)
						answer({ ...base, type: Packet.TYPE.A, address: '10.1.2.3' });
					if (q.type === Packet.TYPE.AAAA)
						answer({ ...base, type: Packet.TYPE.AAAA, address: '::1' });
					if (q.type === Packet.TYPE.MX)
						answer({
							...base,
							type: Packet.TYPE.MX,
							exchange: 'mail.example.test',
							priority: 10
						});
					if (q.type === Packet.TYPE.TXT)
						answer({ ...base, type: Packet.TYPE.TXT, data: 'v=spf1 -all' });
				}
				if (q.name === 'www.example.test' && q.type === Packet.TYPE.CNAME)
					answer({ ...base, type: Packet.TYPE.CNAME, domain: 'example.test' });
				// Any other name does not exist (NXDOMAIN); a known name without the asked-for
				// type is an empty NOERROR answer (NODATA).
				if (!['example.test', 'www.example.test'].includes(q.name))
					response.header.rcode = Packet.RCODE.NXDOMAIN;
				send(response);
			}
		});
		await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
		servers = [`127.0.0.1:${(server.addresses().udp as { port: number }).port}`];
	});
	afterAll(() => server.close());

	const dnsMonitor = (
		uri: string,
		record_assertions: DnsMonitor['record_assertions']
	): DnsMonitor => ({ ...common, type: 'dns', uri, record_assertions });

	it('checks A, AAAA, CNAME, MX and TXT records with every comparator', async () => {
		const r = await checkDns(
			dnsMonitor('example.test', [
				{ record: 'A', comparator: 'eq', target: '10.1.2.3' },
				{ record: 'AAAA', comparator: 'contains', target: '::1' },
				{ record: 'MX', comparator: 'eq', target: 'mail.example.test' },
				{ record: 'TXT', comparator: 'contains', target: 'spf1' },
				{ record: 'A', comparator: 'neq', target: '10.9.9.9' },
				{ record: 'TXT', comparator: 'not_contains', target: 'google' }
			]),
			{ servers }
		);
		expect(r.assertions?.map((a) => a.passed)).toEqual([true, true, true, true, true, true]);
		expect(r.outcome).toBe('success');
		const cname = await checkDns(
			dnsMonitor('www.example.test', [
				{ record: 'CNAME', comparator: 'eq', target: 'example.test' }
			]),
			{ servers }
		);
		expect(cname.outcome).toBe('success');
	});

	it('fails with the assertion named when a record differs or is missing', async () => {
		const wrong = await checkDns(
			dnsMonitor('example.test', [{ record: 'A', comparator: 'eq', target: '10.0.0.1' }]),
			{ servers }
		);
		expect(wrong).toMatchObject({
			outcome: 'error',
			error: 'assertion failed: A eq "10.0.0.1" (got 10.1.2.3)'
		});
		const missing = await checkDns(
			dnsMonitor('www.example.test', [{ record: 'A', comparator: 'eq', target: '1.1.1.1' }]),
			{ servers }
		);
		expect(missing).toMatchObject({
			outcome: 'error',
			error: 'assertion failed: A eq "1.1.1.1" (got no record)'
		});
	});

	it('fails on a name that does not exist (NXDOMAIN), negative assertions too', async () => {
		for (const comparator of ['neq', 'not_contains', 'eq'] as const) {
			const r = await checkDns(
				dnsMonitor('nothing.test', [{ record: 'A', comparator, target: '10.1.2.3' }]),
				{ servers }
			);
			expect(r).toMatchObject({
				outcome: 'error',
				error: 'DNS lookup failed: ENOTFOUND nothing.test (no such domain)'
			});
		}
		expect(await checkDns(dnsMonitor('nothing.test', []), { servers })).toMatchObject({
			outcome: 'error',
			error: 'DNS lookup failed: ENOTFOUND nothing.test (no such domain)'
		});
	});

	it('judges a type with no records on an existing name (NODATA) as no records', async () => {
		const r = await checkDns(
			dnsMonitor('www.example.test', [
				{ record: 'TXT', comparator: 'not_contains', target: 'spf1' },
				{ record: 'MX', comparator: 'neq', target: 'mail.example.test' }
			]),
			{ servers }
		);
		expect(r).toMatchObject({ outcome: 'success' });
		expect(r.assertions?.map((a) => a.actual)).toEqual(['', '']);
	});
});

describe('icmp check', () => {
	it('pings 127.0.0.1 three times and reports the average and no loss', async () => {
		const called = performance.now();
		const r = await checkIcmp({ ...common, type: 'icmp', uri: '127.0.0.1' });
		const wall = performance.now() - called;
		expect(r).toMatchObject({ outcome: 'success', packetLoss: 0 });
		// The average of three round trips made one after another fits in a third of the call.
		expect(r.latency).toBeGreaterThan(0);
		expect(r.latency).toBeLessThanOrEqual(wall / 3);
		const degraded = await checkIcmp({ ...common, type: 'icmp', uri: '127.0.0.1', degraded_at: 0 });
		expect(degraded.outcome).toBe('degraded');
	});
});
