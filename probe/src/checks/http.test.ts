import http from 'node:http';
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portOf, selfSignedCert } from '../../test/servers.ts';
import { checkHttp, hopLatency, phases } from './http.ts';
import { runCheck } from './index.ts';
import type { HttpMonitor } from './types.ts';

let server: http.Server;
let tls: https.Server;
let other: http.Server;
let base: string;
let otherBase: string;
let flaky = 0;
// What each request to either server carried, in order.
type Seen = { origin: string; method?: string; headers: http.IncomingHttpHeaders; body: string };
let seen: Seen[] = [];

const handler: http.RequestListener = (req, res) => {
	let received = '';
	req.on('data', (c) => (received += c));
	req.on('end', () =>
		seen.push({
			origin: `${req.headers.host}`,
			method: req.method,
			headers: req.headers,
			body: received
		})
	);
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
	if (req.url === '/count') return send(200, '42', { 'x-count': '42', 'x-name': 'beta' });
	if (req.url === '/empty') return send(200);
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
	// /hop/<status>/<target> answers <status> with Location <target> (a URL or a path).
	const hop = /^\/hop\/(\d+)\/(.+)$/.exec(req.url ?? '');
	if (hop) return send(Number(hop[1]), '', { location: decodeURIComponent(hop[2]) });
	if (req.url === '/flaky') return flaky++ < 2 ? send(503, 'not yet') : send(200, 'ready');
	send(500, 'boom');
};

beforeAll(async () => {
	server = http.createServer(handler);
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	base = `http://127.0.0.1:${portOf(server)}`;
	other = http.createServer(handler);
	await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
	otherBase = `http://127.0.0.1:${portOf(other)}`;
	tls = https.createServer(selfSignedCert(), handler);
	await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
});
afterAll(() => {
	server.close();
	other.close();
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

	it('judges body and header assertions with every comparator of spec 2.5', async () => {
		type Rule = {
			comparator: HttpMonitor['body_assertions'][number]['comparator'];
			target: string;
		};
		// [comparator, target, passes] against the body "42" and the header x-count: 42.
		const cases: Array<[Rule['comparator'], string, boolean]> = [
			['eq', '42', true],
			['eq', '4', false],
			['neq', '4', true],
			['neq', '42', false],
			['contains', '2', true],
			['contains', '7', false],
			['not_contains', '7', true],
			['not_contains', '4', false],
			['empty', '', false],
			['not_empty', '', true],
			// numbers compare as numbers: 42 > 9 although "42" sorts before "9"
			['gt', '9', true],
			['gt', '42', false],
			['gte', '42', true],
			['gte', '43', false],
			['lt', '100', true],
			['lt', '42', false],
			['lte', '42', true],
			['lte', '41', false]
		];
		const r = await checkHttp(
			monitor(`${base}/count`, {
				body_assertions: cases.map(([comparator, target]) => ({ comparator, target })),
				header_assertions: cases.map(([comparator, target]) => ({
					key: 'X-Count',
					comparator,
					target
				}))
			})
		);
		const judged = (kind: string) =>
			r.assertions?.filter((a) => a.kind === kind).map((a) => [a.description, a.passed]);
		const expected = (what: string) =>
			cases.map(([c, t, passes]) => [`${what} ${c} ${JSON.stringify(t)}`, passes]);
		expect(judged('body')).toEqual(expected('body'));
		expect(judged('header')).toEqual(expected('header X-Count'));
		expect(r).toMatchObject({
			outcome: 'error',
			error: 'assertion failed: body eq "4" (got 42)'
		});
		// Text that is not a number compares as text; an empty body and a missing header are empty.
		const text = await checkHttp(
			monitor(`${base}/count`, {
				header_assertions: [
					{ key: 'x-name', comparator: 'gt', target: 'alpha' },
					{ key: 'x-name', comparator: 'lt', target: 'gamma' },
					{ key: 'x-missing', comparator: 'empty', target: '' }
				]
			})
		);
		expect(text.outcome).toBe('success');
		const empty = await checkHttp(
			monitor(`${base}/empty`, {
				body_assertions: [
					{ comparator: 'empty', target: '' },
					{ comparator: 'not_empty', target: '' }
				]
			})
		);
		expect(empty.assertions?.filter((a) => a.kind === 'body').map((a) => a.passed)).toEqual([
			true,
			false
		]);
		expect(empty.error).toBe('assertion failed: body not_empty "" (got )');
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
		const called = performance.now();
		const slow = await checkHttp(monitor(`${base}/slow`, { degraded_at: 100 }));
		const wall = performance.now() - called;
		expect(slow.outcome).toBe('degraded');
		// At least the server's delay, and no more than the call took: the delay is what it measures.
		expect(slow.latency).toBeGreaterThanOrEqual(300);
		expect(slow.latency).toBeLessThanOrEqual(wall);
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

	it('keeps secret header values out of header assertions and their error', async () => {
		const r = await checkHttp(
			monitor(`${base}/ok`, {
				header_assertions: [
					{ key: 'Set-Cookie', comparator: 'eq', target: 'nope' },
					{ key: 'set-cookie', comparator: 'contains', target: 'session=' }
				]
			})
		);
		expect(
			r.assertions?.filter((a) => a.kind === 'header').map((a) => [a.passed, a.actual])
		).toEqual([
			[false, '[redacted]'],
			[true, '[redacted]']
		]);
		expect(r.error).toBe('assertion failed: header Set-Cookie eq "nope" (got [redacted])');
		expect(JSON.stringify(r)).not.toContain('abc');
	});

	describe('redirects', () => {
		const secrets = [
			{ key: 'Authorization', value: 'Bearer s3cret' },
			{ key: 'Cookie', value: 'sid=s3cret' },
			{ key: 'Proxy-Authorization', value: 'Basic s3cret' },
			{ key: 'X-Api-Key', value: 's3cret' },
			{ key: 'X-Plain', value: 'kept' }
		];
		const follow = async (path: string, extra: Partial<HttpMonitor> = {}) => {
			seen = [];
			const r = await checkHttp(monitor(`${base}${path}`, extra));
			expect(r.statusCode).toBe(200);
			return seen;
		};
		const secretsIn = (s: Seen) =>
			['authorization', 'cookie', 'proxy-authorization', 'x-api-key'].filter((h) => h in s.headers);

		it('drop credentials once the origin changes, for that hop and every later one', async () => {
			const back = encodeURIComponent(`${base}/echo`);
			const away = encodeURIComponent(`${otherBase}/hop/302/${back}`);
			const hops = await follow(`/hop/302/${away}`, { headers: secrets });
			expect(hops.map((s) => [s.origin, secretsIn(s).length, s.headers['x-plain']])).toEqual([
				[base.slice(7), 4, 'kept'],
				[otherBase.slice(7), 0, 'kept'],
				[base.slice(7), 0, 'kept']
			]);
		});

		it('drop a user-set Host header once the origin changes; keep it on the same origin', async () => {
			const host = [{ key: 'Host', value: 'app.internal' }];
			const away = encodeURIComponent(`${otherBase}/echo`);
			const cross = await follow(`/hop/302/${away}`, { headers: host });
			expect(cross.map((s) => s.headers.host)).toEqual(['app.internal', otherBase.slice(7)]);
			const same = await follow('/hop/302/%2Fecho', { headers: host });
			expect(same.map((s) => s.headers.host)).toEqual(['app.internal', 'app.internal']);
		});

		it('keep credentials on the same origin', async () => {
			const hops = await follow('/hop/307/%2Fecho', { headers: secrets });
			expect(hops.map((s) => secretsIn(s).length)).toEqual([4, 4]);
		});

		it('turn POST into a GET without body on 301, 302 and 303; 307 and 308 keep both', async () => {
			const post = {
				method: 'POST',
				body: 'payload',
				headers: [{ key: 'Content-Type', value: 'text/plain' }]
			};
			for (const [status, method, body] of [
				[301, 'GET', ''],
				[302, 'GET', ''],
				[303, 'GET', ''],
				[307, 'POST', 'payload'],
				[308, 'POST', 'payload']
			] as const) {
				const [, last] = await follow(`/hop/${status}/%2Fecho`, post);
				expect([status, last.method, last.body, last.headers['content-type']]).toEqual([
					status,
					method,
					body,
					body ? 'text/plain' : undefined
				]);
			}
			const [, put] = await follow('/hop/302/%2Fecho', { ...post, method: 'PUT' });
			expect([put.method, put.body]).toEqual(['PUT', 'payload']);
		});
	});

	it('reads timeout 0 as the default budget (spec 2.4), not as no time at all', async () => {
		const r = await runCheck(monitor(`${base}/slow`, { timeout: 0 }));
		expect(r).toMatchObject({ outcome: 'success', statusCode: 200, attempts: 1 });
	});
});
