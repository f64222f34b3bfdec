import type { Db } from '../../db/client.ts';
import type { Tx } from '../transaction.ts';
import { generateAgentKey, hashAgentKey } from './internal.ts';

// Every workspace has a built-in "Local" private location that the all-in-one process probes
// from, so a fresh install shows real results without deploying a probe. Idempotent.
export async function ensureLocalLocation(args: { tx: Tx; workspaceId: number }): Promise<void> {
	const existing = await args.tx.privateLocation.findFirst({
		where: { workspaceId: args.workspaceId, builtIn: true },
		select: { id: true }
	});
	if (existing) return;
	const token = generateAgentKey();
	await args.tx.privateLocation.create({
		data: {
			workspaceId: args.workspaceId,
			name: 'Local',
			builtIn: true,
			token,
			tokenHash: hashAgentKey(token),
			metadata: JSON.stringify({ kind: 'built-in' })
		}
	});
}

// New monitors run from the workspace's built-in location by default.
export async function assignToLocal(args: {
	tx: Tx;
	workspaceId: number;
	monitorId: number;
}): Promise<void> {
	const local = await args.tx.privateLocation.findFirst({
		where: { workspaceId: args.workspaceId, builtIn: true },
		select: { id: true }
	});
	if (local)
		await args.tx.privateLocationMonitor.create({
			data: { privateLocationId: local.id, monitorId: args.monitorId }
		});
}

// The all-in-one process's probes: gives every workspace still without one its Local location,
// then returns every built-in location (across workspaces: the caller is the process itself).
export async function ensureLocalLocations(args: {
	db: Db;
}): Promise<Array<{ id: number; token: string }>> {
	const workspaces = await args.db.workspace.findMany({
		where: { privateLocations: { none: { builtIn: true } } },
		select: { id: true }
	});
	for (const w of workspaces)
		await args.db.$transaction((tx) => ensureLocalLocation({ tx, workspaceId: w.id }));
	return args.db.privateLocation.findMany({
		where: { builtIn: true },
		select: { id: true, token: true }
	});
}
