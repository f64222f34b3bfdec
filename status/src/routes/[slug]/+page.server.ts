import { error, redirect } from '@sveltejs/kit';
import { messagesFor } from '$lib/i18n/index.ts';
import { formError, loadError } from '$lib/server/errors.ts';
import { ServerOnly } from '$lib/server-only.ts';
import { setGrantCookie } from '$lib/server/grant-cookie.ts';
import { pageLocator, presentPage, readerFacts, safeNext } from '$lib/server/reader.ts';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	const { locals, params } = event;
	const data = await locals.api.statusPage
		.getPublic({ page: pageLocator(params.slug), reader: readerFacts(event) })
		.catch(loadError);
	const { locale } = presentPage(event, data.head);
	if (data.access === 'ip-denied') error(403, messagesFor(locale).gate.ipDenied);
	// Rendered here only: 1,800 uptime days are not worth serialising for a hydration that
	// never happens (lib/server-only.ts).
	return { view: new ServerOnly({ ...data, locale }) };
};

export const actions: Actions = {
	unlock: async (event) => {
		const { locals, params, request, cookies, url } = event;
		const form = await request.formData();
		try {
			const { cookie } = await locals.api.statusPage.unlock({
				page: pageLocator(params.slug),
				reader: readerFacts(event),
				password: String(form.get('password') ?? '')
			});
			setGrantCookie(cookies, url, cookie);
		} catch (err) {
			return formError(err);
		}
		redirect(303, safeNext(form.get('next'), url.pathname, url));
	},
	requestLink: async ({ locals, params, request }) => {
		const form = await request.formData();
		try {
			await locals.api.statusPage.requestAccess({
				page: pageLocator(params.slug),
				email: String(form.get('email') ?? '')
			});
		} catch (err) {
			return formError(err);
		}
		return { sent: true };
	}
};
