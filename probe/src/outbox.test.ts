import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Outbox } from './outbox.ts';
import type { PendingResult } from './wire.ts';

const result = (n: number): PendingResult => ({
	resultId: `r${n}`,
	monitorId: 1,
	type: 'tcp',
	startedAt: n,
	latency: n,
	outcome: 'success',
	attempts: 1
});
const fileIn = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'outbox-')), 'outbox.jsonl');

describe('probe outbox', () => {
	it('keeps pushed results across a restart and forgets acknowledged ones', () => {
		const file = fileIn();
		const a = new Outbox(file);
		for (let i = 1; i <= 4; i++) a.push(result(i));
		a.ack(new Set(['r2']));
		a.push(result(5));
		const b = new Outbox(file);
		expect(b.peek(10).map((r) => r.resultId)).toEqual(['r1', 'r3', 'r4', 'r5']);
	});

	it('appends after a file written without a final newline (older probes)', () => {
		const file = fileIn();
		writeFileSync(file, [result(1), result(2)].map((r) => JSON.stringify(r)).join('\n'));
		new Outbox(file).push(result(3));
		expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
		expect(new Outbox(file).peek(10).map((r) => r.resultId)).toEqual(['r1', 'r2', 'r3']);
	});
});
