import { UnauthorizedError } from '../../errors.ts';
import { parseInput } from '../../parse.ts';
import { issueGrant } from './grant.ts';
import { findPublicPage, type PublicDeps } from './open-page.ts';
import { hashAccessToken } from './request-access.ts';
import { VerifyAccessInput, type GrantOutput } from './schemas.ts';

const INVALID = 'this link is invalid or has expired: request a new one';

// Claims a one-time link (once, before expiry, for this page) and issues the pass cookie,
// provided the address is still at an allowed domain.
export async function verifyStatusPageAccess(args: {
	deps: PublicDeps;
	input: VerifyAccessInput;
}): Promise<GrantOutput> {
	const input = parseInput(VerifyAccessInput, args.input);
	const { db } = args.deps;
	const now = args.deps.now?.() ?? new Date();
	const { row } = await findPublicPage(db, input.page);
	const tokenHash = hashAccessToken(input.token);
	const claimed = await db.statusPageAccessToken.updateMany({
		where: { tokenHash, pageId: row.id, usedAt: null, expiresAt: { gt: now } },
		data: { usedAt: now }
	});
	if (claimed.count !== 1 || row.accessType !== 'email-domain')
		throw new UnauthorizedError(INVALID);
	const { email } = await db.statusPageAccessToken.findUniqueOrThrow({ where: { tokenHash } });
	const domains = (JSON.parse(row.authEmailDomains) as string[]).map((d) => d.toLowerCase());
	if (!domains.includes(email.split('@')[1])) throw new UnauthorizedError(INVALID);
	return { cookie: issueGrant({ secret: args.deps.secret, page: row, now }) };
}
