import type { Prisma } from '@prisma/client';
import { NotFoundError, ServiceError } from '../errors.ts';
import type { Tx } from '../transaction.ts';
import type { MemberOutput } from './schemas.ts';

type MembershipRow = Prisma.MembershipGetPayload<{ include: { user: true } }>;

export async function getMemberInWorkspace(args: {
	tx: Tx;
	userId: number;
	workspaceId: number;
}): Promise<MembershipRow> {
	const row = await args.tx.membership.findFirst({
		where: { userId: args.userId, workspaceId: args.workspaceId },
		include: { user: true }
	});
	if (!row) throw new NotFoundError('member', args.userId);
	return row;
}

export function toMemberOutput(row: MembershipRow): MemberOutput {
	return {
		user_id: row.userId,
		email: row.user.email,
		role: row.role as MemberOutput['role'],
		created_at: row.createdAt.toISOString()
	};
}

// A workspace always keeps an owner.
export async function keepAnOwner(tx: Tx, member: MembershipRow): Promise<void> {
	if (member.role !== 'owner') return;
	const owners = await tx.membership.count({
		where: { workspaceId: member.workspaceId, role: 'owner' }
	});
	if (owners <= 1)
		throw new ServiceError(
			'PRECONDITION_FAILED',
			'the last owner cannot be removed or demoted: make another member owner first'
		);
}
