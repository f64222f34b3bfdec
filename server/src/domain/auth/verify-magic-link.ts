import type { AppLucia } from '../../auth/lucia.ts';
import type { Db } from '../../db/client.ts';
import { UnauthorizedError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { homeWorkspace, type NewWorkspaceTerms } from './internal.ts';
import { hashToken } from './request-magic-link.ts';
import { VerifyMagicLinkInput } from './schemas.ts';

const INVALID = 'this sign-in link is invalid or has expired: request a new one';

// Single use. The first sign-in creates the user (and maybe a workspace: homeWorkspace).
export async function verifyMagicLink(args: {
	db: Db;
	lucia: AppLucia;
	newWorkspace: NewWorkspaceTerms;
	input: VerifyMagicLinkInput;
}): Promise<{ sessionId: string; userId: number; workspaceId: number | null }> {
	const { token } = parseInput(VerifyMagicLinkInput, args.input);
	const { userId, workspaceId } = await args.db.$transaction(
		async (tx): Promise<{ userId: number; workspaceId: number | null }> => {
			const claimed = await tx.magicLinkToken.updateMany({
				where: { tokenHash: hashToken(token), usedAt: null, expiresAt: { gt: new Date() } },
				data: { usedAt: new Date() }
			});
			if (claimed.count !== 1) throw new UnauthorizedError(INVALID);
			const { email } = await tx.magicLinkToken.findUniqueOrThrow({
				where: { tokenHash: hashToken(token) }
			});
			const user = await tx.user.upsert({ where: { email }, create: { email }, update: {} });
			const workspaceId = await homeWorkspace({
				db: args.db,
				tx,
				user,
				newWorkspace: args.newWorkspace
			});
			return { userId: user.id, workspaceId };
		}
	);
	const session = await args.lucia.createSession(userId, { workspaceId });
	return { sessionId: session.id, userId, workspaceId };
}
