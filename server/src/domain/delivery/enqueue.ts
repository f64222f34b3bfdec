import type { Tx } from '../transaction.ts';

export type EnqueueDeliveryInput = {
	workspaceId: number;
	kind: string; // picks the handler (registry.ts)
	dedupeKey: string; // one message per key, ever: a second enqueue is a no-op
	payload: Record<string, unknown>;
	channelId?: number | null;
	incidentId?: number | null;
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
			incidentId: input.incidentId ?? null
		}
	});
	return true;
}
