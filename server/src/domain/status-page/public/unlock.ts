import { UnauthorizedError } from '../../errors.ts';
import { parseInput } from '../../parse.ts';
import { verifyPassword } from '../internal.ts';
import { issueGrant } from './grant.ts';
import { findPublicPage, type PublicDeps } from './open-page.ts';
import { UnlockInput, type GrantOutput } from './schemas.ts';

// The password form: a right password earns a signed pass cookie, never a token in the URL.
export async function unlockStatusPage(args: {
	deps: PublicDeps;
	input: UnlockInput;
}): Promise<GrantOutput> {
	const input = parseInput(UnlockInput, args.input);
	const { row } = await findPublicPage(args.deps.db, input.page);
	if (row.accessType !== 'password' || !row.passwordHash)
		throw new UnauthorizedError('this page does not take a password');
	if (!verifyPassword(input.password, row.passwordHash))
		throw new UnauthorizedError('wrong password');
	return {
		cookie: issueGrant({
			secret: args.deps.secret,
			page: row,
			now: args.deps.now?.() ?? new Date()
		})
	};
}
