import { describe, expect, it } from 'vitest';
import { sanitizeResult } from './sanitize.ts';

const valid = {
	resultId: 'r-12345678',
	monitorId: 7,
	startedAt: 1_700_000_000_000,
	latency: 12,
	outcome: 'success',
	attempts: 1,
	statusCode: 200,
	error: '',
	timing: {},
	headers: { 'content-type': 'text/html' },
	assertions: '[]',
	grpcStatus: '',
	packetLoss: null
};

describe('check result sanitizing', () => {
	it('passes a valid result through untouched', () => {
		expect(sanitizeResult(valid)).toEqual({ ok: true, result: valid, truncated: [] });
	});

	it('cuts over-long text and replaces unreadable assertions, naming each field', () => {
		const out = sanitizeResult({
			...valid,
			error: 'e'.repeat(2001),
			grpcStatus: 'g'.repeat(40),
			headers: { ['h'.repeat(300)]: 'v', ok: 'v'.repeat(4097) },
			assertions: '[{"cut":'
		});
		expect(out.ok).toBe(true);
		if (!out.ok) return;
		expect(out.truncated).toEqual([
			'error',
			'grpcStatus',
			'assertions',
			`headers.${'h'.repeat(255)}…`,
			'headers.ok'
		]);
		expect(out.result.error).toHaveLength(2000);
		expect(out.result.grpcStatus).toHaveLength(32);
		expect(out.result.headers.ok).toHaveLength(4096);
		expect(out.result.assertions).toBe('[]');
	});

	it('reports what cannot be repaired, with the monitor id', () => {
		expect(sanitizeResult({ ...valid, outcome: 'exploded', resultId: '' })).toMatchObject({
			ok: false,
			monitorId: 7,
			reason: expect.stringMatching(/resultId: .*; outcome: /)
		});
		expect(sanitizeResult('nonsense')).toMatchObject({ ok: false, monitorId: undefined });
	});
});
