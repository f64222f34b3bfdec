/**
 * Load data SvelteKit must not serialise. Status pages render on the server only (`csr = false`),
 * yet SvelteKit still serialises every server `load` result with devalue for a hydration that
 * never happens; for a 20-component page with 90-day bars that cost more than rendering it. The
 * `transport` hook (src/hooks.ts) encodes a `ServerOnly` as nothing, and the page reads `.value`.
 */
export class ServerOnly<T> {
	readonly value: T;
	constructor(value: T) {
		this.value = value;
	}
}
