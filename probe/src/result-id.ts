import { randomBytes } from 'node:crypto';

// Random bytes drawn 4 KiB at a time: one crypto call per ~400 ids instead of one per id.
let pool = Buffer.alloc(0);
let used = 0;
function random(n: number): Buffer {
	if (used + n > pool.length) {
		pool = randomBytes(4096);
		used = 0;
	}
	used += n;
	return pool.subarray(used - n, used);
}

// A UUIDv7 (RFC 9562): 48 bits of epoch ms, then random bits. Ids made later sort later, so the
// ingest server's result-id index grows at its end instead of at random places.
export function newResultId(now = Date.now()): string {
	const b = Buffer.alloc(16);
	b.writeUIntBE(now, 0, 6);
	random(10).copy(b, 6);
	b[6] = (b[6] & 0x0f) | 0x70;
	b[8] = (b[8] & 0x3f) | 0x80;
	const h = b.toString('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
