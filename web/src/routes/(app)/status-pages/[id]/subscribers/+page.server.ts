import { actionError, loadError } from '$lib/server/errors';
import { componentIds } from '$lib/server/report-form';
import { formValues, id } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params }) => {
	const pageId = id(params.id);
	const [components, subscribers] = await Promise.all([
		locals.api.pageComponent.list({ pageId }),
		locals.api.subscriber.list({ pageId })
	]).catch(loadError);
	return { components: components.data, subscribers: subscribers.data };
};

export const actions: Actions = {
	addWebhook: async ({ locals, params, request }) => {
		const data = await request.formData();
		const v = formValues(data);
		try {
			const created = await locals.api.subscriber.addWebhook({
				pageId: id(params.id),
				url: v.url ?? '',
				componentIds: componentIds(data)
			});
			// Shown once: the receiver verifies X-Upstate-Signature with it.
			return { done: 'addWebhook', signingSecret: created.signingSecret };
		} catch (err) {
			return actionError(err, v);
		}
	},
	remove: async ({ locals, params, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.subscriber.remove({
				pageId: id(params.id),
				subscriberId: Number(v.subscriberId)
			});
			return { done: 'remove' };
		} catch (err) {
			return actionError(err, v);
		}
	}
};
