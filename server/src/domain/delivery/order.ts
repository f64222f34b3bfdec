import type { Tx } from '../transaction.ts';

// The event a `channel` row carries (alert, recovery, degraded), from its payload.
export function eventKind(payload: string): string {
	try {
		return (JSON.parse(payload) as { event?: { kind?: string } }).event?.kind ?? '';
	} catch {
		return '';
	}
}

export const SUPERSEDED = 'superseded: the recovery of this episode was ready first';

export function supersedeData(error?: string) {
	return { status: 'superseded', lastError: error ? `${error}; ${SUPERSEDED}` : SUPERSEDED };
}

// Which due rows may be claimed now. Rows sharing an `orderKey` (one channel, one monitor) go in
// id order: a row waits while an earlier one of its key is being sent by someone else or waits
// for a retry. A recovery does not wait for an earlier alert that is waiting for a retry: that
// alert is dropped as superseded (a log entry says so), since after the recovery it would say
// the monitor is down when it is not. Runs inside the claiming transaction.
export async function claimableInOrder(
	tx: Tx,
	candidates: Array<{ id: number; orderKey: string | null; payload: string }>,
	now: Date
): Promise<{ ids: number[]; superseded: number }> {
	const keys = [...new Set(candidates.flatMap((c) => (c.orderKey ? [c.orderKey] : [])))];
	const mine = new Set(candidates.map((c) => c.id));
	const waiting = keys.length
		? (
				await tx.delivery.findMany({
					where: { orderKey: { in: keys }, status: { in: ['pending', 'sending'] } },
					orderBy: { id: 'asc' },
					select: {
						id: true,
						orderKey: true,
						status: true,
						payload: true,
						workspaceId: true,
						channelId: true,
						attempts: true
					}
				})
			).filter((w) => !mine.has(w.id))
		: [];
	const held = new Set<string>();
	const ids: number[] = [];
	let superseded = 0;
	for (const c of candidates) {
		if (!c.orderKey) {
			ids.push(c.id);
			continue;
		}
		if (held.has(c.orderKey)) continue;
		const recovery = eventKind(c.payload) === 'recovery';
		for (const w of waiting) {
			if (w.orderKey !== c.orderKey || w.id > c.id || w.status === 'superseded') continue;
			if (recovery && w.status === 'pending' && eventKind(w.payload) !== 'recovery') {
				await tx.delivery.update({ where: { id: w.id }, data: supersedeData() });
				await tx.deliveryAttempt.create({
					data: {
						deliveryId: w.id,
						workspaceId: w.workspaceId,
						channelId: w.channelId,
						attempt: w.attempts,
						ok: false,
						status: 0,
						error: SUPERSEDED,
						event: eventKind(w.payload),
						at: now
					}
				});
				w.status = 'superseded';
				superseded++;
				continue;
			}
			held.add(c.orderKey);
		}
		if (!held.has(c.orderKey)) ids.push(c.id);
	}
	return { ids, superseded };
}
