import type { AppLucia } from '../../auth/lucia.ts';
import { ProviderSignInError, type SignInProviders } from '../../auth/providers.ts';
import type { Db } from '../../db/client.ts';
import { UnauthorizedError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { FinishProviderSignInInput, type FinishProviderSignInOutput } from './schemas.ts';
import type { NewWorkspaceTerms } from './internal.ts';
import { signInWithProvider } from './sign-in-with-provider.ts';

// The provider's callback: code → tokens → profile → session. Every failure a person can meet
// comes back as a reason the sign-in page explains (never a 500), and is logged once.
export async function finishProviderSignIn(args: {
	db: Db;
	lucia: AppLucia;
	providers: SignInProviders;
	newWorkspace: NewWorkspaceTerms;
	input: FinishProviderSignInInput;
}): Promise<FinishProviderSignInOutput> {
	const { search, flow } = parseInput(FinishProviderSignInInput, args.input);
	try {
		const profile = await args.providers.finish({ search, flow });
		const signedIn = await signInWithProvider({ ...args, input: profile }).catch((err) => {
			if (!(err instanceof UnauthorizedError)) throw err;
			throw new ProviderSignInError('unverified', `no verified e-mail (${profile.email})`);
		});
		console.log(
			`[auth] provider sign-in provider=${flow.provider} userId=${signedIn.userId} workspaceId=${signedIn.workspaceId}`
		);
		return { ok: true, sessionId: signedIn.sessionId, next: flow.next ?? null };
	} catch (err) {
		if (!(err instanceof ProviderSignInError)) throw err;
		console.log(
			`[auth] provider sign-in failed provider=${flow.provider} reason=${err.reason} detail=${JSON.stringify(err.message)}`
		);
		return { ok: false, reason: err.reason, provider: flow.provider };
	}
}
