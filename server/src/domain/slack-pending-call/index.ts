import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.ts';

// The Slack agent's held publishing calls (server/src/slack/agent.ts), in the database so a
// restart or a second API replica keeps the question. Each read and write is scoped to the
// Slack team and its linked workspace; a call runs at most once: the claim is a conditional
// update (pending -> done | cancelled) that only one click wins.

export const PENDING_TTL_MS = 30 * 60 * 1000;

export type HeldCall = {
	id: string;
	toolName: string;
	input: Record<string, unknown>;
	state: 'pending' | 'done' | 'cancelled';
	outcome: string | null;
	expired: boolean;
};
type Scope = { db: Db; teamId: string; workspaceId: number };

// Holds a call; expired rows (of any team) are deleted here, so the table stays small.
export async function holdSlackCall(
	args: Scope & {
		channelId: string;
		toolName: string;
		input: Record<string, unknown>;
		requestedByUserId: number;
		now?: Date;
	}
): Promise<string> {
	const now = args.now ?? new Date();
	await args.db.slackPendingCall.deleteMany({ where: { expiresAt: { lt: now } } });
	const id = randomBytes(12).toString('base64url');
	await args.db.slackPendingCall.create({
		data: {
			id,
			workspaceId: args.workspaceId,
			teamId: args.teamId,
			channelId: args.channelId,
			toolName: args.toolName,
			input: JSON.stringify(args.input),
			requestedByUserId: args.requestedByUserId,
			createdAt: now,
			expiresAt: new Date(now.getTime() + PENDING_TTL_MS)
		}
	});
	return id;
}

// The Slack message carrying the buttons (known once it is posted).
export async function setSlackCallMessage(args: Scope & { id: string; messageTs: string }) {
	await args.db.slackPendingCall.updateMany({
		where: { id: args.id, teamId: args.teamId, workspaceId: args.workspaceId },
		data: { messageTs: args.messageTs }
	});
}

// Another team's or workspace's id is as unknown as a deleted one: null.
export async function findSlackCall(args: Scope & { id: string }): Promise<HeldCall | null> {
	const row = await args.db.slackPendingCall.findFirst({
		where: { id: args.id, teamId: args.teamId, workspaceId: args.workspaceId }
	});
	if (!row) return null;
	return {
		id: row.id,
		toolName: row.toolName,
		input: JSON.parse(row.input) as Record<string, unknown>,
		state: row.state as HeldCall['state'],
		outcome: row.outcome,
		expired: row.expiresAt.getTime() < Date.now()
	};
}

// Claims a pending, unexpired call for one run (or its cancel): true for exactly one caller.
export async function claimSlackCall(
	args: Scope & { id: string; to: 'done' | 'cancelled' }
): Promise<boolean> {
	const { count } = await args.db.slackPendingCall.updateMany({
		where: {
			id: args.id,
			teamId: args.teamId,
			workspaceId: args.workspaceId,
			state: 'pending',
			expiresAt: { gte: new Date() }
		},
		data: { state: args.to }
	});
	return count === 1;
}

// What the claimed call did, for the "Already done: …" answer to later clicks.
export async function finishSlackCall(args: Scope & { id: string; outcome: string }) {
	await args.db.slackPendingCall.updateMany({
		where: { id: args.id, teamId: args.teamId, workspaceId: args.workspaceId },
		data: { outcome: args.outcome.slice(0, 4000) }
	});
}
