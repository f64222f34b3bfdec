import type { AppLucia } from '../../auth/lucia.ts';
import type { Db } from '../../db/client.ts';
import { UnauthorizedError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { signInUser, type NewWorkspaceTerms, type SignedIn } from './internal.ts';
import { hashToken } from './request-magic-link.ts';
import { VerifyMagicLinkInput } from './schemas.ts';

const INVALID = 'this sign-in link is invalid or has expired: request a new one';

// Single use. The first sign-in creates the user (and maybe a workspace: homeWorkspace).
export async function verifyMagicLink(args: {
	db: Db;
	lucia: AppLucia;
	newWorkspace: NewWorkspaceTerms;
	input: VerifyMagicLinkInput;
}): Promise<SignedIn> {
	const { token } = parseInput(VerifyMagicLinkInput, args.input);
	return signInUser({
		...args,
		findUser: async (tx) => {
			const claimed = await tx.magicLinkToken.updateMany({
				where: { tokenHash: hashToken(token), usedAt: null, expiresAt: { gt: new Date() } },
				data: { usedAt: new Date() }
			});
			if (claimed.count !== 1) throw new UnauthorizedError(INVALID);
			const { email } = await tx.magicLinkToken.findUniqueOrThrow({
				where: { tokenHash: hashToken(token) }
			});
			return tx.user.upsert({ where: { email }, create: { email }, update: {} });
		}
	});
}
