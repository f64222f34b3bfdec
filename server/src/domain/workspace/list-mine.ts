import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { NotFoundError } from '../errors.ts';
import { parseInput } from '../parse.ts';

export const MyWorkspacesOutput = z.object({
	data: z.array(z.object({ id: z.number(), name: z.string(), role: z.string() }))
});
export type MyWorkspacesOutput = z.infer<typeof MyWorkspacesOutput>;
export const SwitchWorkspaceInput = z.object({ workspaceId: z.number().int().positive() });
export type SwitchWorkspaceInput = z.infer<typeof SwitchWorkspaceInput>;

// A user in several workspaces sees one at a time; the session remembers which.
export async function listMyWorkspaces(args: {
	db: Db;
	userId: number;
}): Promise<MyWorkspacesOutput> {
	const rows = await args.db.membership.findMany({
		where: { userId: args.userId },
		include: { workspace: true },
		orderBy: { id: 'asc' }
	});
	return { data: rows.map((m) => ({ id: m.workspace.id, name: m.workspace.name, role: m.role })) };
}

export async function switchWorkspace(args: {
	db: Db;
	userId: number;
	sessionId: string;
	input: SwitchWorkspaceInput;
}): Promise<{ workspaceId: number }> {
	const { workspaceId } = parseInput(SwitchWorkspaceInput, args.input);
	const membership = await args.db.membership.findFirst({
		where: { userId: args.userId, workspaceId }
	});
	if (!membership) throw new NotFoundError('workspace', workspaceId);
	await args.db.session.update({ where: { id: args.sessionId }, data: { workspaceId } });
	return { workspaceId };
}
