import http from 'node:http';
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portOf, selfSignedCert } from '../../test/servers.ts';
import { checkHttp, hopLatency, phases } from './http.ts';
import type { HttpMonitor } from './types.ts';

let server: http.Server;
let tls: https.Server;
let base: string;
let flaky = 0;

const handler: http.RequestListener = (req, res) => {
	const send = (status: number, body = '', headers: Record<string, string> = {}) => {
		res.writeHead(status, headers);
		res.end(body);
	};
	if (req.url === '/ok')
		return send(200, 'hello upstate', {
			'x-test': 'yes',
			'set-cookie': 'session=abc',
			'content-type': 'text/plain'
		});
	if (req.url === '/slow') return void setTimeout(() => send(200, 'late'), 300);
	if (req.url === '/redirect') return send(302, '', { location: '/ok' });
	if (req.url === '/redirect-slow')
		return void setTimeout(() => send(302, '', { location: '/ok' }), 20);
	if (req.url === '/echo') {
		let body = '';
		req.on('data', (c) => (body += c));
		req.on('end', () => send(200, `${req.method} ${req.headers['x-token']} ${body}`));
		return;
	}
	if (req.url === '/flaky') return flaky++ < 2 ? send(503, 'not yet') : send(200, 'ready');
	send(500, 'boom');
};

beforeAll(async () => {
	server = http.createServer(handler);
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	base = `http://127.0.0.1:${portOf(server)}`;
	tls = https.createServer(selfSignedCert(), handler);
	await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
});
afterAll(() => {
	server.close();
	tls.close();
});

const monitor = (url: string, extra: Partial<HttpMonitor> = {}): HttpMonitor => ({
	id: 1,
	name: 'm',
	type: 'http',
	periodicity: '1m',
	timeout: 5000,
	degraded_at: null,
	retry: 0,
	url,
	method: 'GET',
	body: '',
	follow_redirects: true,
	headers: [],
	status_code_assertions: [],
	body_assertions: [],
	header_assertions: [],
	...extra
});

describe('http check', () => {
	it('succeeds on 2xx with phase timings and redacted response headers', async () => {
		const r = await checkHttp(monitor(`http://localhost:${portOf(server)}/ok`));
		expect(r).toMatchObject({ outcome: 'success', statusCode: 200, attempts: 1 });
		expect(r.timing?.dns).toBeGreaterThanOrEqual(0);
		expect(r.timing?.connect).toBeGreaterThanOrEqual(0);
		expect(r.timing?.ttfb).toBeGreaterThanOrEqual(0);
		expect(r.timing?.transfer).toBeGreaterThanOrEqual(0);
		expect(r.timing?.tls).toBeUndefined();
		expect(r.headers).toMatchObject({ 'x-test': 'yes', 'set-cookie': '[redacted]' });
	});

	it('evaluates status, body and header assertions', async () => {
		const pass = await checkHttp(
			monitor(`${base}/ok`, {
				status_code_assertions: [{ comparator: 'eq', target: 200 }],
				body_assertions: [{ comparator: 'contains', target: 'upstate' }],
				header_assertions: [{ key: 'X-Test', comparator: 'eq', target: 'yes' }]
			})
		);
		expect(pass.outcome).toBe('success');
		expect(pass.assertions?.every((a) => a.passed)).toBe(true);
		const fail = await checkHttp(
			monitor(`${base}/ok`, { body_assertions: [{ comparator: 'not_contains', target: 'hello' }] })
		);
		expect(fail).toMatchObject({
			outcome: 'error',
			error: 'assertion failed: body not_contains "hello" (got hello upstate)'
		});
		const status = await checkHttp(monitor(`${base}/missing`));
		expect(status).toMatchObject({
			outcome: 'error',
			statusCode: 500,
			error: 'assertion failed: status lt 300 (got 500)'
		});
	});

	it('sends method, headers and body', async () => {
		const r = await checkHttp(
			monitor(`${base}/echo`, {
				method: 'POST',
				body: 'payload',
				headers: [{ key: 'x-token', value: 't1' }],
				body_assertions: [{ comparator: 'eq', target: 'POST t1 payload' }]
			})
		);
		expect(r.outcome).toBe('success');
	});

	it('follows redirects only when asked', async () => {
		expect((await checkHttp(monitor(`${base}/redirect`))).statusCode).toBe(200);
		const stay = await checkHttp(monitor(`${base}/redirect`, { follow_redirects: false }));
		expect(stay).toMatchObject({ statusCode: 302, outcome: 'error' });
	});

	it('measures a known delay, marks slow answers degraded and times out on the budget', async () => {
		const slow = await checkHttp(monitor(`${base}/slow`, { degraded_at: 100 }));
		expect(slow.outcome).toBe('degraded');
		expect(slow.latency).toBeGreaterThanOrEqual(300);
		expect(slow.latency).toBeLessThan(400);
		const timeout = await checkHttp(monitor(`${base}/slow`, { timeout: 100, retry: 3 }));
		expect(timeout).toMatchObject({ outcome: 'error', error: 'timeout after 100 ms', attempts: 1 });
	});

	it('reports latency as the sum of its phases, each mark after the one before', async () => {
		const r = await checkHttp(monitor(`http://localhost:${portOf(server)}/slow`));
		const t = r.timing ?? {};
		for (const phase of [t.dns, t.connect, t.ttfb, t.transfer])
			expect(phase).toBeGreaterThanOrEqual(0);
		expect(r.latency).toBeCloseTo(hopLatency(t), 1);
		// the marks' own arithmetic: phases partition last byte - start, whichever marks exist
		const marks = { dns: 2, connect: 5, tls: 9, first: 20, last: 26 };
		expect(phases(1, marks, 99)).toEqual({ dns: 1, connect: 3, tls: 4, ttfb: 11, transfer: 6 });
		expect(hopLatency(phases(1, { connect: 5, first: 20, last: 20 }, 99))).toBe(19);
		expect(hopLatency(phases(1, {}, 30))).toBe(29);
	});

	it('counts every redirect hop in the latency; phase timings are the final hop', async () => {
		const r = await checkHttp(monitor(`${base}/redirect-slow`));
		expect(r.statusCode).toBe(200);
		expect(r.latency).toBeGreaterThan(hopLatency(r.timing ?? {}));
	});

	it('retries failed attempts within the budget', async () => {
		flaky = 0;
		const r = await checkHttp(monitor(`${base}/flaky`, { retry: 3 }));
		expect(r).toMatchObject({ outcome: 'success', attempts: 3 });
		const refused = await checkHttp(monitor('http://127.0.0.1:1/', { retry: 2 }));
		expect(refused).toMatchObject({ outcome: 'error', error: 'connection refused', attempts: 3 });
	});

	it('reports a request Node refuses to build as an error result, not a crash', async () => {
		const r = await checkHttp(
			monitor(`${base}/ok`, { headers: [{ key: 'x-bad', value: 'a\nb' }] })
		);
		expect(r).toMatchObject({ outcome: 'error', attempts: 1 });
		expect(r.error).toMatch(/Invalid character in header content/);
	});

	it('reports a self-signed certificate without its details', async () => {
		const r = await checkHttp(monitor(`https://127.0.0.1:${portOf(tls)}/ok`));
		expect(r).toMatchObject({ outcome: 'error', error: 'certificate verification failed' });
	});
});
