import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The server's own schema, in the test only: the probe must never send what it rejects.
import { CheckResultInput } from '../../../server/src/domain/check-result/schemas.ts';
import { fromWireResult } from '../../../server/src/ingest/wire.ts';
import { portOf } from '../../test/servers.ts';
import { toWireResult } from '../wire.ts';
import { runCheck } from './index.ts';
import { capResult, RESULT_LIMITS, truncate } from './limits.ts';
import type { CheckResult, HttpMonitor } from './types.ts';

const accepted = (r: CheckResult) =>
	CheckResultInput.safeParse(fromWireResult(toWireResult({ ...r, resultId: 'r-12345678' })))
		.success;

describe('results fit the ingest schema', () => {
	let server: http.Server;
	beforeAll(async () => {
		server = http.createServer((_req, res) => {
			res.writeHead(200, { 'x-big': 'h'.repeat(10_000) });
			res.end('b'.repeat(100_000));
		});
		await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	});
	afterAll(() => server.close());

	it('cuts a huge header, the assertions and the error, marking each cut with …', async () => {
		const huge = 'x'.repeat(50_000);
		const m: HttpMonitor = {
			id: 1,
			name: 'm',
			type: 'http',
			periodicity: '1m',
			timeout: 5000,
			degraded_at: null,
			retry: 0,
			url: `http://127.0.0.1:${portOf(server)}/`,
			method: 'GET',
			body: '',
			follow_redirects: true,
			headers: [],
			status_code_assertions: [],
			body_assertions: Array.from({ length: 10 }, () => ({
				comparator: 'eq' as const,
				target: huge
			})),
			header_assertions: [{ key: 'x-big', comparator: 'eq', target: 'nope' }]
		};
		const r = await runCheck(m);
		expect(r.outcome).toBe('error');
		expect(r.headers?.['x-big']).toHaveLength(RESULT_LIMITS.headerValue);
		expect(r.headers?.['x-big'].endsWith('h…')).toBe(true);
		expect(r.error).toHaveLength(RESULT_LIMITS.error);
		expect(r.error?.endsWith('…')).toBe(true);
		expect(accepted(r)).toBe(true);
	});

	it('cuts DNS answers and any error, and never splits a surrogate pair', () => {
		const txt = '"quoted\\'.repeat(20_000);
		const r: CheckResult = {
			monitorId: 1,
			type: 'dns',
			startedAt: Date.now(),
			latency: 3,
			outcome: 'error',
			attempts: 1,
			error: `assertion failed: TXT eq "x" (got ${txt})`,
			assertions: Array.from({ length: 10 }, () => ({
				kind: 'record' as const,
				description: `TXT eq ${JSON.stringify(txt)}`,
				passed: false,
				actual: txt
			}))
		};
		expect(JSON.stringify(r.assertions).length).toBeGreaterThan(RESULT_LIMITS.assertionsJson);
		const capped = capResult(r);
		expect(accepted(capped)).toBe(true);
		expect(capped.assertions?.[0].actual.endsWith('…')).toBe(true);
		// Results queued uncapped by an older probe are cut on the way out (toWireResult).
		expect(accepted(r)).toBe(true);
		expect(truncate('ab😀', 4)).toBe('ab😀');
		expect(truncate('ab😀c', 4)).toBe('ab…');
		expect(truncate('short', 10)).toBe('short');
	});
});
