// What subscribing may make the service mail, per process: a client gets a few confirmation
// mails an hour whatever addresses it names, and an address gets a few whatever pages ask, so a
// status page cannot be used to mail-bomb someone. In memory: counts start again on restart.
export const PER_CLIENT_PER_HOUR = 20;
export const PER_ADDRESS_PER_HOUR = 3;
const HOUR_MS = 3_600_000;
const MAX_KEYS = 10_000;

class RecentEvents {
	readonly #times = new Map<string, number[]>();
	readonly #max: number;
	constructor(max: number) {
		this.#max = max;
	}

	// Records one event for `key` unless it already had `max` in the last hour.
	take(key: string, now: number): boolean {
		const recent = (this.#times.get(key) ?? []).filter((t) => t > now - HOUR_MS);
		const ok = recent.length < this.#max;
		if (ok) recent.push(now);
		// A flood of distinct keys cannot grow memory without bound.
		if (!this.#times.has(key) && this.#times.size >= MAX_KEYS) this.#times.clear();
		this.#times.set(key, recent);
		return ok;
	}
}

export class SubscribeBudget {
	readonly clients = new RecentEvents(PER_CLIENT_PER_HOUR);
	readonly addresses = new RecentEvents(PER_ADDRESS_PER_HOUR);
}
