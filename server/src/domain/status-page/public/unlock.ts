import { LimitExceededError, UnauthorizedError } from '../../errors.ts';
import { parseInput } from '../../parse.ts';
import { verifyPassword } from '../internal.ts';
import { clientAddress } from './client-address.ts';
import { issueGrant } from './grant.ts';
import { findPublicPage, type PublicDeps } from './open-page.ts';
import { UnlockInput, type GrantOutput } from './schemas.ts';

export const MAX_WRONG_PASSWORDS = 10;
export const WRONG_PASSWORD_WINDOW_MS = 15 * 60 * 1000;

// The password form: a right password earns a signed pass cookie, never a token in the URL.
// Ten wrong passwords from one client address in 15 minutes close the form for that client
// (checked before scrypt runs, so guessing costs the server nothing more).
export async function unlockStatusPage(args: {
	deps: PublicDeps;
	input: UnlockInput;
}): Promise<GrantOutput> {
	const input = parseInput(UnlockInput, args.input);
	const { db } = args.deps;
	const now = args.deps.now?.() ?? new Date();
	const { row } = await findPublicPage(db, input.page);
	if (row.accessType !== 'password' || !row.passwordHash)
		throw new UnauthorizedError('this page does not take a password');
	const client =
		clientAddress({
			socketAddress: input.reader.socketAddress,
			forwardedFor: input.reader.forwardedFor,
			trustedProxyHops: args.deps.trustedProxyHops
		}) ?? 'unknown';
	const since = new Date(now.getTime() - WRONG_PASSWORD_WINDOW_MS);
	const failures = await db.statusPageUnlockFailure.count({
		where: { pageId: row.id, client, createdAt: { gt: since } }
	});
	if (failures >= MAX_WRONG_PASSWORDS)
		throw new LimitExceededError(
			'unlock-attempts',
			MAX_WRONG_PASSWORDS,
			'too many wrong passwords: try again in 15 minutes'
		);
	if (!verifyPassword(input.password, row.passwordHash)) {
		await db.$transaction([
			db.statusPageUnlockFailure.deleteMany({
				where: { pageId: row.id, createdAt: { lte: since } }
			}),
			db.statusPageUnlockFailure.create({ data: { pageId: row.id, client, createdAt: now } })
		]);
		throw new UnauthorizedError('wrong password');
	}
	return { cookie: issueGrant({ secret: args.deps.secret, page: row, now }) };
}
