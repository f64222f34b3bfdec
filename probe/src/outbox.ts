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
// Past MAX_PENDING the oldest are dropped, with one log line saying how many.
export const MAX_PENDING = 100_000;

export class Outbox {
	private items: PendingResult[] = [];
	private readonly file: string;

	constructor(file: string) {
		this.file = file;
		mkdirSync(path.dirname(file), { recursive: true });
		if (existsSync(file)) {
			this.items = readFileSync(file, 'utf8')
				.split('\n')
				.filter(Boolean)
				.map((line) => JSON.parse(line) as PendingResult);
			if (this.items.length)
				console.log(`[probe] outbox restored pending=${this.items.length} file=${file}`);
			// Rewritten once so every line ends in a newline before anything is appended.
			this.persist();
		}
	}

	get size(): number {
		return this.items.length;
	}

	// One appended line per result (not a rewrite of the whole file): its cost does not grow with
	// the number pending.
	push(result: PendingResult): void {
		this.items.push(result);
		if (this.items.length > MAX_PENDING) {
			const dropped = this.items.length - MAX_PENDING;
			this.items.splice(0, dropped);
			console.warn(`[probe] outbox full dropped=${dropped} oldest results (cap ${MAX_PENDING})`);
			this.persist();
			return;
		}
		appendFileSync(this.file, `${JSON.stringify(result)}\n`);
	}

	peek(max: number): PendingResult[] {
		return this.items.slice(0, max);
	}

	// Removes delivered results by id (the server ignores ids it already has).
	ack(ids: Set<string>): void {
		this.items = this.items.filter((r) => !ids.has(r.resultId));
		this.persist();
	}

	private persist(): void {
		const tmp = `${this.file}.tmp`;
		writeFileSync(tmp, this.items.map((r) => `${JSON.stringify(r)}\n`).join(''));
		renameSync(tmp, this.file);
	}
}
