import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../../db/client.ts';

// Who holds a claim: `host:pid:boot`. The boot id tells this process from an earlier one that
// had the same pid (a container restarted keeps its pid and hostname).
const BOOT = randomUUID().slice(0, 8);
export const PROCESS_ID = `${hostname()}:${process.pid}:${BOOT}`;

function isGone(claimant: string): boolean {
	const [host, pid, boot] = claimant.split(':');
	if (host !== hostname() || !pid || !boot) return false; // another machine: its lease decides
	if (Number(pid) === process.pid) return boot !== BOOT;
	try {
		process.kill(Number(pid), 0);
		return false;
	} catch (err) {
		return (err as NodeJS.ErrnoException).code === 'ESRCH';
	}
}

// Rows a process on this machine claimed and died holding (SIGKILL, a crash, power loss) go
// back to `pending`, due now, instead of waiting out the lease. Their attempt counts stay:
// the send may have reached the receiver (at-least-once; receivers dedupe on the message key).
export async function releaseDeadClaims(db: Db): Promise<number> {
	const holders = await db.delivery.findMany({
		where: { status: 'sending', claimedByProcess: { not: null } },
		distinct: ['claimedByProcess'],
		select: { claimedByProcess: true }
	});
	const gone = holders.map((h) => h.claimedByProcess ?? '').filter(isGone);
	if (gone.length === 0) return 0;
	const released = await db.delivery.updateMany({
		where: { status: 'sending', claimedByProcess: { in: gone } },
		data: {
			status: 'pending',
			claimedBy: null,
			claimedByProcess: null,
			lockedUntil: null,
			nextAttemptAt: new Date()
		}
	});
	if (released.count > 0)
		console.log(
			`[delivery] released claims of gone processes=${gone.join(',')} count=${released.count}`
		);
	return released.count;
}
