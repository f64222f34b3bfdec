import type { Tx } from '../transaction.ts';

export type EnqueueDeliveryInput = {
	workspaceId: number;
	kind: string; // picks the handler (registry.ts)
	dedupeKey: string; // one message per key, ever: a second enqueue is a no-op
	payload: Record<string, unknown>;
	channelId?: number | null;
	incidentId?: number | null;
	orderKey?: string | null; // rows with one key are sent in id order (run-due.ts)
};

// Writes a message to the outbox inside the caller's transaction, so it exists if and only if
// the change that caused it commits. Returns false when the key was already enqueued.
export async function enqueueDelivery(tx: Tx, input: EnqueueDeliveryInput): Promise<boolean> {
	const existing = await tx.delivery.findUnique({
		where: { dedupeKey: input.dedupeKey },
		select: { id: true }
	});
	if (existing) return false;
	await tx.delivery.create({
		data: {
			workspaceId: input.workspaceId,
			kind: input.kind,
			dedupeKey: input.dedupeKey,
			payload: JSON.stringify(input.payload),
			channelId: input.channelId ?? null,
			incidentId: input.incidentId ?? null,
			orderKey: input.orderKey ?? null
		}
	});
	return true;
}

// Fan-out: many messages in one insert (plus one read per 500 keys to skip those already
// enqueued). Returns how many were new. Same transaction rule as enqueueDelivery.
export async function enqueueDeliveries(tx: Tx, inputs: EnqueueDeliveryInput[]): Promise<number> {
	const seen = new Set<string>();
	for (let i = 0; i < inputs.length; i += 500) {
		const rows = await tx.delivery.findMany({
			where: { dedupeKey: { in: inputs.slice(i, i + 500).map((d) => d.dedupeKey) } },
			select: { dedupeKey: true }
		});
		for (const r of rows) seen.add(r.dedupeKey);
	}
	const fresh: EnqueueDeliveryInput[] = [];
	for (const d of inputs) {
		if (seen.has(d.dedupeKey)) continue;
		seen.add(d.dedupeKey);
		fresh.push(d);
	}
	if (fresh.length === 0) return 0;
	await tx.delivery.createMany({
		data: fresh.map((d) => ({
			workspaceId: d.workspaceId,
			kind: d.kind,
			dedupeKey: d.dedupeKey,
			payload: JSON.stringify(d.payload),
			channelId: d.channelId ?? null,
			incidentId: d.incidentId ?? null
		}))
	});
	return fresh.length;
}
