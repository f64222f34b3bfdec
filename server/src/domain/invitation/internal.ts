import type { Invitation } from '@prisma/client';
import type { InvitationOutput } from './schemas.ts';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export function toInvitationOutput(row: Invitation): InvitationOutput {
	return {
		id: row.id,
		email: row.email,
		role: row.role as InvitationOutput['role'],
		expires_at: row.expiresAt.toISOString(),
		created_at: row.createdAt.toISOString()
	};
}

export const pendingWhere = (workspaceId: number) => ({
	workspaceId,
	acceptedAt: null,
	expiresAt: { gt: new Date() }
});
