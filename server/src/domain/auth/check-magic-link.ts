import type { Db } from '../../db/client.ts';
import { hashToken } from './request-magic-link.ts';
import { VerifyMagicLinkInput, type MagicLinkState } from './schemas.ts';

// What opening a sign-in link shows, changing nothing: mail scanners open links too, so only
// the person's POST (verifyMagicLink) uses it. The address is the one the link was mailed to.
export async function checkMagicLink(args: {
	db: Db;
	input: VerifyMagicLinkInput;
}): Promise<MagicLinkState> {
	const parsed = VerifyMagicLinkInput.safeParse(args.input);
	if (!parsed.success) return { state: 'unknown', email: null };
	const { token } = parsed.data;
	const row = await args.db.magicLinkToken.findUnique({ where: { tokenHash: hashToken(token) } });
	if (!row) return { state: 'unknown', email: null };
	const state = row.usedAt ? 'used' : row.expiresAt <= new Date() ? 'expired' : 'valid';
	return { state, email: row.email };
}
