import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

	it('skips a torn last line after a crash, says how many once, and rewrites the file clean', () => {
		const file = fileIn();
		const lines = [result(1), result(2)].map((r) => `${JSON.stringify(r)}\n`).join('');
		writeFileSync(file, `${lines}{"resultId":"r3","monit`);
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const outbox = new Outbox(file);
		expect(warn.mock.calls).toEqual([[expect.stringMatching(/^\[probe\] outbox skipped=1 /)]]);
		expect(outbox.peek(10).map((r) => r.resultId)).toEqual(['r1', 'r2']);
		expect(readFileSync(file, 'utf8')).toBe(lines);
		outbox.push(result(4));
		expect(new Outbox(file).peek(10).map((r) => r.resultId)).toEqual(['r1', 'r2', 'r4']);
		warn.mockRestore();
	});

	describe('at the cap', () => {
		afterEach(() => {
			vi.useRealTimers();
			vi.restoreAllMocks();
		});

		it('drops the oldest and logs the count dropped at most once a minute', () => {
			vi.useFakeTimers({ toFake: ['setTimeout'] });
			const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
			const file = fileIn();
			const outbox = new Outbox(file, { max: 3 });
			for (let i = 1; i <= 8; i++) outbox.push(result(i));
			expect(outbox.peek(10).map((r) => r.resultId)).toEqual(['r6', 'r7', 'r8']);
			expect(new Outbox(file, { max: 3 }).peek(10).map((r) => r.resultId)).toEqual([
				'r6',
				'r7',
				'r8'
			]);
			const dropped = () => warn.mock.calls.map(([line]) => /dropped=(\d+)/.exec(line)?.[1]);
			// The first drop at once; the next four within the minute as one line when it ends.
			expect(dropped()).toEqual(['1']);
			vi.advanceTimersByTime(60_000);
			expect(dropped()).toEqual(['1', '4']);
			vi.advanceTimersByTime(120_000);
			expect(dropped()).toEqual(['1', '4']);
			outbox.push(result(9));
			expect(dropped()).toEqual(['1', '4', '1']);
		});
	});
});
