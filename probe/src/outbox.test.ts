import { mkdtempSync, readdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
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
const filesOf = (file: string) => readdirSync(path.dirname(file)).sort();
const ids = (o: Outbox) => o.peek(1000).map((r) => r.resultId);
const snapshot = (file: string) =>
	Object.fromEntries(
		filesOf(file).map((f) => [f, readFileSync(path.join(path.dirname(file), f), 'utf8')])
	);

describe('probe outbox', () => {
	it('keeps pushed results across a restart and forgets acknowledged ones', () => {
		const file = fileIn();
		const a = new Outbox(file);
		for (let i = 1; i <= 4; i++) a.push(result(i));
		a.ack(new Set(['r2']));
		a.push(result(5));
		a.close();
		const b = new Outbox(file);
		expect(ids(b)).toEqual(['r1', 'r3', 'r4', 'r5']);
		b.close();
	});

	it('never rewrites at start: what is on disk stays byte for byte, new records go to a new segment', () => {
		const file = fileIn();
		const a = new Outbox(file);
		for (let i = 1; i <= 3; i++) a.push(result(i));
		a.close();
		const before = snapshot(file);
		const b = new Outbox(file);
		expect(snapshot(file)).toEqual(before);
		b.push(result(4));
		b.close();
		expect(filesOf(file)).toEqual(['outbox.jsonl.1', 'outbox.jsonl.2']);
		expect(snapshot(file)['outbox.jsonl.1']).toBe(before['outbox.jsonl.1']);
	});

	it('deletes a segment once every result in it is acknowledged (compaction by rotation)', () => {
		const file = fileIn();
		const a = new Outbox(file, { segmentBytes: 200 });
		for (let i = 1; i <= 6; i++) a.push(result(i));
		const segments = filesOf(file).length;
		expect(segments).toBeGreaterThan(2);
		a.ack(new Set(['r1', 'r2', 'r3', 'r4']));
		expect(filesOf(file).length).toBeLessThan(segments);
		a.close();
		expect(ids(new Outbox(file))).toEqual(['r5', 'r6']);
	});

	it('reads the single JSONL file of older probes, a last line without newline included, and leaves it as is', () => {
		const file = fileIn();
		const legacy = [result(1), result(2)].map((r) => JSON.stringify(r)).join('\n');
		writeFileSync(file, legacy);
		const a = new Outbox(file);
		a.push(result(3));
		expect(readFileSync(file, 'utf8')).toBe(legacy);
		a.close();
		const b = new Outbox(file);
		expect(ids(b)).toEqual(['r1', 'r2', 'r3']);
		// Once all its results are delivered the old file goes too.
		b.ack(new Set(['r1', 'r2']));
		expect(filesOf(file)).not.toContain('outbox.jsonl');
		b.close();
	});

	it('skips a torn tail and a record whose checksum does not match, says how many once', () => {
		const file = fileIn();
		const a = new Outbox(file);
		for (let i = 1; i <= 3; i++) a.push(result(i));
		a.close();
		const seg = path.join(path.dirname(file), 'outbox.jsonl.1');
		const lines = readFileSync(seg, 'utf8').split('\n');
		// r2's payload altered in place (same length), and a record cut off mid-write at the end.
		lines[1] = (lines[1] as string).replace('"latency":2', '"latency":9');
		writeFileSync(seg, lines.join('\n'));
		appendFileSync(seg, (lines[0] as string).slice(0, 30));
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const b = new Outbox(file);
		expect(warn.mock.calls).toEqual([[expect.stringMatching(/^\[probe\] outbox skipped=2 /)]]);
		expect(ids(b)).toEqual(['r1', 'r3']);
		warn.mockRestore();
		b.close();
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
			expect(ids(outbox)).toEqual(['r6', 'r7', 'r8']);
			expect(ids(new Outbox(file, { max: 3 }))).toEqual(['r6', 'r7', 'r8']);
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
