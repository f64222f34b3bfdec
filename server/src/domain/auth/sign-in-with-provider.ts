import type { AppLucia } from '../../auth/lucia.ts';
import type { Db } from '../../db/client.ts';
import { UnauthorizedError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { signInUser, type NewWorkspaceTerms, type SignedIn } from './internal.ts';
import { ProviderProfileInput } from './schemas.ts';

// A person came back from a sign-in provider. A known identity (provider + subject) signs in
// its user. A new one is linked by e-mail only when the provider has verified that address:
// otherwise anyone could claim someone's address at a lax provider and take over their account.
export async function signInWithProvider(args: {
	db: Db;
	lucia: AppLucia;
	newWorkspace: NewWorkspaceTerms;
	input: ProviderProfileInput;
}): Promise<SignedIn> {
	const { provider, subject, email, emailVerified } = parseInput(ProviderProfileInput, args.input);
	return signInUser({
		...args,
		findUser: async (tx) => {
			const identity = await tx.userIdentity.findUnique({
				where: { provider_subject: { provider, subject } },
				include: { user: true }
			});
			let user = identity?.user;
			if (!user) {
				if (!email || !emailVerified) {
					throw new UnauthorizedError(
						`the ${provider} account has no verified e-mail address: verify it there, or sign in with an e-mail link`
					);
				}
				user = await tx.user.upsert({ where: { email }, create: { email }, update: {} });
				await tx.userIdentity.create({ data: { userId: user.id, provider, subject, email } });
			}
			return user;
		}
	});
}
