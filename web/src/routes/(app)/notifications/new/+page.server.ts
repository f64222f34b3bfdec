import { error, redirect } from '@sveltejs/kit';
import { providerForm } from '$lib/notification-providers';
import { channelBlock, monitorIds, safeValues } from '$lib/server/channel-form';
import { actionError } from '$lib/server/errors';
import { listAllMonitors } from '$lib/server/monitors';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	const provider = providerForm(url.searchParams.get('provider'));
	if (!provider) error(404, 'Unknown provider');
	return { provider, monitors: await listAllMonitors(locals.api) };
};

export const actions: Actions = {
	default: async ({ locals, request, url }) => {
		const provider = providerForm(url.searchParams.get('provider'));
		if (!provider) error(404, 'Unknown provider');
		const data = await request.formData();
		let created: { id: number; signing_secret?: string };
		try {
			// safe because the router's own schema validates the block
			created = await locals.api.notificationChannel.create({
				name: String(data.get('name') ?? ''),
				provider_type: provider.type,
				monitor_ids: monitorIds(data),
				[provider.type]: channelBlock(data, provider)
			} as Parameters<typeof locals.api.notificationChannel.create>[0]);
		} catch (err) {
			return actionError(err, safeValues(data, provider));
		}
		// The webhook signing secret is shown once, so this answer renders it instead of redirecting.
		if (created.signing_secret)
			return { created: { id: created.id, signingSecret: created.signing_secret } };
		redirect(303, `/notifications/${created.id}`);
	}
};
