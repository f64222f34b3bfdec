import {
	closeSync,
	existsSync,
	fsyncSync,
	ftruncateSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	unlinkSync,
	writeSync
} from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { PendingResult } from './wire.ts';

// Results not yet delivered, kept on disk so a restart or an ingest outage loses nothing.
// Past MAX_PENDING the oldest are dropped, with at most one log line a minute saying how many.
export const MAX_PENDING = 100_000;
// Results made while the disk is full wait in memory, at most this many (the oldest go first).
export const MAX_UNSAVED = 10_000;
// The active segment is fsynced at most this long after a write, and on rotation.
export const FSYNC_EVERY_MS = 1000;
const SEGMENT_BYTES = 4 * 1024 * 1024;

// Beside the outbox: one line, `ok` or what failed, from the probe's last exchange with the
// ingest server (read by the image's health check, probe/src/healthcheck.ts).
export const healthFile = (outboxFile: string) => `${outboxFile}.health`;
const DROP_LOG_EVERY_MS = 60_000;

// On disk: segments `<file>.<seq>`, append-only. A record is one line, `r <bytes> <crc32> <json>`
// (a result) or `a <bytes> <crc32> <json ids>` (results delivered or dropped). A line whose length
// or checksum does not match (a write torn by a crash or a full disk) is skipped. Writes go to a
// new segment from each start on; a segment is deleted once every result in it is acknowledged
// (compaction by rotation: nothing is ever rewritten). An acknowledgement lost with its segment
// only makes a result be sent again, which the server ignores (same result id).
export class Outbox {
	private items: PendingResult[] = [];
	private readonly file: string;
	private readonly max: number;
	private readonly maxUnsaved: number;
	private readonly segmentBytes: number;
	// Which segment holds each pending result, and how many pending results each segment holds.
	private readonly segmentOf = new Map<string, number>();
	private readonly liveIn = new Map<number, number>();
	private active: { seq: number; fd: number; bytes: number } | null = null;
	private nextSeq = 1;
	private dirty = false;
	// Results not on disk (full disk, unwritable directory), in push order.
	private unsaved: PendingResult[] = [];
	private fullSince: string | null = null;
	private droppedWhileFull = 0;
	private readonly timer: NodeJS.Timeout;
	private droppedUnlogged = 0;
	private dropLogTimer?: NodeJS.Timeout;

	constructor(
		file: string,
		opts: { max?: number; maxUnsaved?: number; segmentBytes?: number; fsyncEveryMs?: number } = {}
	) {
		this.file = file;
		this.max = opts.max ?? MAX_PENDING;
		this.maxUnsaved = opts.maxUnsaved ?? MAX_UNSAVED;
		this.segmentBytes = opts.segmentBytes ?? SEGMENT_BYTES;
		this.restore();
		this.timer = setInterval(() => this.tick(), opts.fsyncEveryMs ?? FSYNC_EVERY_MS);
		this.timer.unref();
	}

	get size(): number {
		return this.items.length;
	}

	// Never throws: a result that cannot be written (full disk) is kept in memory and written
	// when space returns; the check loop goes on either way.
	push(result: PendingResult): void {
		this.items.push(result);
		if (this.unsaved.length > 0 || !this.writeResult(result)) this.holdUnsaved(result);
		if (this.items.length <= this.max) return;
		const dropped = this.items.splice(0, this.items.length - this.max);
		this.forget(dropped.map((r) => r.resultId));
		this.noteDropped(dropped.length);
	}

	peek(max: number): PendingResult[] {
		return this.items.slice(0, max);
	}

	// Removes delivered results by id (the server ignores ids it already has).
	ack(ids: Set<string>): void {
		this.items = this.items.filter((r) => !ids.has(r.resultId));
		this.forget([...ids]);
	}

	// Writes out what waits in memory and fsyncs what was written (also run every FSYNC_EVERY_MS).
	tick(): void {
		if (this.unsaved.length > 0 || this.fullSince) this.writeUnsaved();
		if (this.dirty && this.active) {
			try {
				fsyncSync(this.active.fd);
				this.dirty = false;
			} catch {
				// A failing fsync is retried on the next tick; the data is in the page cache.
			}
		}
	}

	close(): void {
		clearInterval(this.timer);
		this.tick();
		if (this.active) closeSync(this.active.fd);
		this.active = null;
	}

	// ---- disk ------------------------------------------------------------------------------

	private segments(): Array<{ seq: number; file: string }> {
		const dir = path.dirname(this.file);
		const base = `${path.basename(this.file)}.`;
		if (!existsSync(dir)) return [];
		return readdirSync(dir)
			.filter((f) => f.startsWith(base) && /^\d+$/.test(f.slice(base.length)))
			.map((f) => ({ seq: Number(f.slice(base.length)), file: path.join(dir, f) }))
			.sort((a, b) => a.seq - b.seq);
	}

	// Reads every segment (and the single JSONL file of older probes, as segment 0); nothing is
	// rewritten, so a start on a full disk works like any other.
	private restore(): void {
		const found: Array<{ seq: number; file: string; legacy?: boolean }> = this.segments();
		if (existsSync(this.file)) found.unshift({ seq: 0, file: this.file, legacy: true });
		const acked = new Set<string>();
		const results: Array<{ seq: number; r: PendingResult }> = [];
		let skipped = 0;
		for (const seg of found) {
			this.nextSeq = Math.max(this.nextSeq, seg.seq + 1);
			const lines = readFileSync(seg.file, 'utf8').split('\n');
			// Text after the last newline is a write cut short (older probes ended without one).
			const torn = lines.pop() ?? '';
			if (seg.legacy) lines.push(torn);
			else if (torn) skipped++;
			for (const line of lines) {
				if (!line) continue;
				const record = seg.legacy ? legacyRecord(line) : parseRecord(line);
				if (!record) skipped++;
				else if (record.type === 'a') for (const id of record.ids) acked.add(id);
				else results.push({ seq: seg.seq, r: record.result });
			}
		}
		if (skipped)
			console.warn(`[probe] outbox skipped=${skipped} unreadable records file=${this.file}`);
		const seen = new Set<string>();
		for (const { seq, r } of results) {
			if (acked.has(r.resultId) || seen.has(r.resultId)) continue;
			seen.add(r.resultId);
			this.items.push(r);
			this.segmentOf.set(r.resultId, seq);
			this.liveIn.set(seq, (this.liveIn.get(seq) ?? 0) + 1);
		}
		// Fully acknowledged segments found at start go now.
		for (const seg of found) if (!this.liveIn.get(seg.seq)) this.unlink(seg.seq);
		// The newest are kept: past the cap the oldest count as dropped.
		if (this.items.length > this.max) {
			const dropped = this.items.splice(0, this.items.length - this.max);
			this.forget(dropped.map((r) => r.resultId));
		}
		if (this.items.length)
			console.log(`[probe] outbox restored pending=${this.items.length} file=${this.file}`);
	}

	private segmentFile(seq: number): string {
		return seq === 0 ? this.file : `${this.file}.${seq}`;
	}

	private open(): boolean {
		if (this.active) return true;
		const seq = this.nextSeq++;
		try {
			mkdirSync(path.dirname(this.file), { recursive: true });
			this.active = { seq, fd: openSync(this.segmentFile(seq), 'a'), bytes: 0 };
			return true;
		} catch (err) {
			this.startFull(err);
			return false;
		}
	}

	private rotate(): void {
		if (!this.active) return;
		const { fd, seq } = this.active;
		this.active = null;
		try {
			fsyncSync(fd);
		} catch {
			// The segment stays readable as far as it got; its torn tail is skipped on read.
		}
		closeSync(fd);
		if (!this.liveIn.get(seq)) this.unlink(seq);
	}

	// One record appended whole, or not at all: a write cut short (ENOSPC) is truncated away, so
	// the next record starts on a clean line.
	private append(line: string): boolean {
		if (this.active && this.active.bytes >= this.segmentBytes) this.rotate();
		if (!this.open() || !this.active) return false;
		const buf = Buffer.from(line);
		const seg = this.active;
		let written = 0;
		try {
			while (written < buf.length) written += writeSync(seg.fd, buf, written);
			seg.bytes += buf.length;
			this.dirty = true;
			return true;
		} catch (err) {
			if (written > 0) {
				try {
					ftruncateSync(seg.fd, seg.bytes);
				} catch {
					this.rotate(); // cannot cut the torn bytes: later records go to a new segment
				}
			}
			this.startFull(err);
			return false;
		}
	}

	private writeResult(r: PendingResult): boolean {
		if (!this.append(encode('r', r))) return false;
		const at = this.active?.seq ?? 0; // append may have rotated: the segment written to
		this.segmentOf.set(r.resultId, at);
		this.liveIn.set(at, (this.liveIn.get(at) ?? 0) + 1);
		return true;
	}

	private writeUnsaved(): void {
		const pending = new Set(this.items.map((r) => r.resultId));
		while (this.unsaved.length > 0) {
			const r = this.unsaved[0] as PendingResult;
			if (pending.has(r.resultId) && !this.writeResult(r)) return;
			this.unsaved.shift();
		}
		if (this.fullSince) {
			console.log(
				`[probe] outbox writable again file=${this.file} dropped=${this.droppedWhileFull}`
			);
			this.fullSince = null;
			this.droppedWhileFull = 0;
		}
	}

	private holdUnsaved(r: PendingResult): void {
		this.unsaved.push(r);
		if (this.unsaved.length <= this.maxUnsaved) return;
		const [oldest] = this.unsaved.splice(0, 1);
		if (!oldest) return;
		this.items = this.items.filter((i) => i.resultId !== oldest.resultId);
		this.droppedWhileFull++;
	}

	// One line per episode: from the first failed write until everything held is written out.
	private startFull(err: unknown): void {
		if (this.fullSince) return;
		this.fullSince = new Date().toISOString();
		const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
		console.error(
			`[probe] outbox full file=${this.file} error=${code}: results wait in memory (up to ${this.maxUnsaved}) and are written when space returns; free disk space`
		);
	}

	// Delivered or dropped: noted on disk (best effort) and their segments deleted once empty.
	private forget(ids: string[]): void {
		const held = new Set(ids);
		if (this.unsaved.length) this.unsaved = this.unsaved.filter((r) => !held.has(r.resultId));
		const onDisk = ids.filter((id) => this.segmentOf.has(id));
		if (onDisk.length === 0) return;
		if (!this.fullSince) this.append(encode('a', onDisk));
		for (const id of onDisk) {
			const seq = this.segmentOf.get(id) as number;
			this.segmentOf.delete(id);
			const left = (this.liveIn.get(seq) ?? 1) - 1;
			if (left > 0) this.liveIn.set(seq, left);
			else {
				this.liveIn.delete(seq);
				if (seq !== this.active?.seq) this.unlink(seq);
			}
		}
	}

	private unlink(seq: number): void {
		try {
			unlinkSync(this.segmentFile(seq));
		} catch {
			// Already gone, or not deletable now: read again (and skipped as acknowledged) next start.
		}
	}

	// The first drop is logged at once, later ones as one total per minute.
	private noteDropped(count: number): void {
		this.droppedUnlogged += count;
		if (this.dropLogTimer) return;
		const logNow = () => {
			if (this.droppedUnlogged === 0) return void (this.dropLogTimer = undefined);
			console.warn(
				`[probe] outbox over cap dropped=${this.droppedUnlogged} oldest results (cap ${this.max})`
			);
			this.droppedUnlogged = 0;
			this.dropLogTimer = setTimeout(logNow, DROP_LOG_EVERY_MS).unref();
		};
		logNow();
	}
}

type OutboxRecord = { type: 'r'; result: PendingResult } | { type: 'a'; ids: string[] };

function encode(type: 'r' | 'a', value: unknown): string {
	const json = Buffer.from(JSON.stringify(value));
	return `${type} ${json.length} ${crc32(json).toString(16)} ${json.toString()}\n`;
}

function parseRecord(line: string): OutboxRecord | null {
	const m = /^([ra]) (\d+) ([0-9a-f]+) /.exec(line);
	if (!m) return null;
	const json = Buffer.from(line.slice(m[0].length));
	if (json.length !== Number(m[2]) || crc32(json).toString(16) !== m[3]) return null;
	try {
		const value = JSON.parse(json.toString()) as unknown;
		return m[1] === 'a'
			? { type: 'a', ids: value as string[] }
			: { type: 'r', result: value as PendingResult };
	} catch {
		return null;
	}
}

// Older probes wrote one bare JSON result per line to the outbox file itself.
function legacyRecord(line: string): OutboxRecord | null {
	try {
		return { type: 'r', result: JSON.parse(line) as PendingResult };
	} catch {
		return null;
	}
}
