import {
	appendFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	writeFileSync
} from 'node:fs';
import path from 'node:path';
import type { PendingResult } from './wire.ts';

// Results not yet delivered, kept on disk so a restart or an ingest outage loses nothing.
// Past MAX_PENDING the oldest are dropped, with at most one log line a minute saying how many.
export const MAX_PENDING = 100_000;

// Beside the outbox: one line, `ok` or what failed, from the probe's last exchange with the
// ingest server (read by the image's health check, probe/src/healthcheck.ts).
export const healthFile = (outboxFile: string) => `${outboxFile}.health`;
const DROP_LOG_EVERY_MS = 60_000;

export class Outbox {
	private items: PendingResult[] = [];
	private readonly file: string;
	private readonly max: number;
	// Dropped results still at the head of the file; the file is rewritten once they pile up,
	// not on every push at the cap.
	private droppedInFile = 0;
	private droppedUnlogged = 0;
	private dropLogTimer?: NodeJS.Timeout;

	constructor(file: string, opts: { max?: number } = {}) {
		this.file = file;
		this.max = opts.max ?? MAX_PENDING;
		mkdirSync(path.dirname(file), { recursive: true });
		if (existsSync(file)) {
			// A crash mid-append leaves a torn last line: skip what does not parse, never crash on it.
			let skipped = 0;
			for (const line of readFileSync(file, 'utf8').split('\n')) {
				if (!line) continue;
				try {
					this.items.push(JSON.parse(line) as PendingResult);
				} catch {
					skipped++;
				}
			}
			if (skipped) console.warn(`[probe] outbox skipped=${skipped} unreadable lines file=${file}`);
			// The newest are kept: a file written at the cap still holds some dropped lines.
			this.items = this.items.slice(-this.max);
			if (this.items.length)
				console.log(`[probe] outbox restored pending=${this.items.length} file=${file}`);
			// Rewritten once, clean and with every line ending in a newline, before anything is appended.
			this.persist();
		}
	}

	get size(): number {
		return this.items.length;
	}

	// One appended line per result (not a rewrite of the whole file): its cost does not grow with
	// the number pending, at the cap too.
	push(result: PendingResult): void {
		this.items.push(result);
		appendFileSync(this.file, `${JSON.stringify(result)}\n`);
		if (this.items.length <= this.max) return;
		const dropped = this.items.length - this.max;
		this.items.splice(0, dropped);
		this.droppedInFile += dropped;
		if (this.droppedInFile >= Math.max(1, Math.floor(this.max / 10))) this.persist();
		this.noteDropped(dropped);
	}

	peek(max: number): PendingResult[] {
		return this.items.slice(0, max);
	}

	// Removes delivered results by id (the server ignores ids it already has).
	ack(ids: Set<string>): void {
		this.items = this.items.filter((r) => !ids.has(r.resultId));
		this.persist();
	}

	// The first drop is logged at once, later ones as one total per minute.
	private noteDropped(count: number): void {
		this.droppedUnlogged += count;
		if (this.dropLogTimer) return;
		const logNow = () => {
			if (this.droppedUnlogged === 0) return void (this.dropLogTimer = undefined);
			console.warn(
				`[probe] outbox full dropped=${this.droppedUnlogged} oldest results (cap ${this.max})`
			);
			this.droppedUnlogged = 0;
			this.dropLogTimer = setTimeout(logNow, DROP_LOG_EVERY_MS).unref();
		};
		logNow();
	}

	private persist(): void {
		const tmp = `${this.file}.tmp`;
		writeFileSync(tmp, this.items.map((r) => `${JSON.stringify(r)}\n`).join(''));
		renameSync(tmp, this.file);
		this.droppedInFile = 0;
	}
}
