import { redirect } from '@sveltejs/kit';
import { getUpstate, toServiceError } from '@upstate/server';
import { actionError } from '$lib/server/errors';
import { formValues } from '$lib/server/form';
import { safeNext, setSignInFlow } from '$lib/server/sign-in-flow';
import type { Actions, PageServerLoad } from './$types';

// What each failed provider sign-in (?error=reason&provider=id, from the callback) tells the person.
const FAILURES: Record<string, (name: string) => string> = {
	cancelled: (name) => `Sign-in at ${name} was cancelled. Try again, or use an e-mail link.`,
	expired: (name) =>
		`The sign-in with ${name} took too long or was started in another tab. Start again.`,
	unverified: (name) =>
		`Your ${name} account has no verified e-mail address. Verify your address at ${name} and try again, or sign in with an e-mail link.`,
	provider: (name) =>
		`${name} refused the sign-in. Try again; if it keeps failing, ask your administrator to check the ${name} app settings (server log, line [auth]).`,
	unavailable: (name) =>
		`${name} could not be reached. Try again in a moment, or sign in with an e-mail link.`
};

export const load: PageServerLoad = async ({ locals, url }) => {
	if (locals.user) redirect(303, '/monitors');
	const providers = await locals.api.auth.providers();
	const reason = url.searchParams.get('error') ?? '';
	const providerId = url.searchParams.get('provider') ?? '';
	const name = providers.find((p) => p.id === providerId)?.name ?? 'the provider';
	// An invitation link sends people here first: name the workspace they are joining.
	const token = /^\/invite\/accept\?token=([\w-]{10,200})$/.exec(
		url.searchParams.get('next') ?? ''
	);
	return {
		providers,
		failure: FAILURES[reason]?.(name) ?? null,
		invitation: token ? await locals.api.invitation.describe({ token: token[1] }) : null,
		// No transport outside production: the link goes to the server log and the local outbox.
		localOutbox: getUpstate().mailer.transport === 'outbox'
	};
};

export const actions: Actions = {
	email: async ({ locals, request, url }) => {
		const values = formValues(await request.formData());
		try {
			await locals.api.auth.requestMagicLink({
				email: values.email ?? '',
				next: safeNext(url.searchParams.get('next'))
			});
			return { sent: true, email: values.email };
		} catch (err) {
			return actionError(err, values);
		}
	},
	// A provider button: keep state, PKCE verifier and nonce in a cookie, leave for the provider.
	provider: async ({ locals, request, url, cookies }) => {
		const provider = String((await request.formData()).get('provider') ?? '');
		let target: string;
		try {
			const { url: authorizationUrl, flow } = await locals.api.auth.startProviderSignIn({
				provider,
				next: safeNext(url.searchParams.get('next'))
			});
			setSignInFlow(cookies, flow, getUpstate().config.urls.dashboard);
			target = authorizationUrl;
		} catch (err) {
			// An unknown provider, or an issuer that cannot be reached right now (logged).
			if (!['UNAUTHORIZED', 'VALIDATION'].includes(toServiceError(err).code)) throw err;
			target = `/sign-in?error=unavailable&provider=${encodeURIComponent(provider)}`;
		}
		redirect(303, target);
	}
};
