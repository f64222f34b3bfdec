import { error, redirect } from '@sveltejs/kit';
import { providerForm } from '$lib/notification-providers';
import { channelBlock, monitorIds, safeValues } from '$lib/server/channel-form';
import { actionError, loadError } from '$lib/server/errors';
import { id } from '$lib/server/form';
import { listAllMonitors } from '$lib/server/monitors';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params }) => {
	const notificationChannelId = id(params.id);
	const [channel, monitors, deliveries] = await Promise.all([
		locals.api.notificationChannel.get({ notificationChannelId }),
		listAllMonitors(locals.api),
		locals.api.notificationChannel.deliveries({ notificationChannelId, limit: 50 })
	]).catch(loadError);
	const provider = providerForm(channel.provider_type);
	if (!provider) error(500, `No form for provider ${channel.provider_type}`);
	return { channel, provider, monitors, deliveries: deliveries.data };
};

export const actions: Actions = {
	save: async ({ locals, params, request }) => {
		const data = await request.formData();
		const channel = await locals.api.notificationChannel.get({
			notificationChannelId: id(params.id)
		});
		const provider = providerForm(channel.provider_type);
		if (!provider) error(500, `No form for provider ${channel.provider_type}`);
		try {
			// safe because the router's own schema validates the block
			const saved = await locals.api.notificationChannel.update({
				notificationChannelId: channel.id,
				name: String(data.get('name') ?? ''),
				monitor_ids: monitorIds(data),
				[provider.type]: channelBlock(data, provider, { edit: true })
			} as Parameters<typeof locals.api.notificationChannel.update>[0]);
			// A webhook whose secrets no longer open (AUTH_SECRET rotated) gets a new signing secret.
			return { saved: true, signingSecret: saved.signing_secret };
		} catch (err) {
			return actionError(err, safeValues(data, provider));
		}
	},
	test: async ({ locals, params }) => {
		try {
			return {
				tested: await locals.api.notificationChannel.sendTest({
					notificationChannelId: id(params.id)
				})
			};
		} catch (err) {
			return actionError(err);
		}
	},
	delete: async ({ locals, params }) => {
		try {
			await locals.api.notificationChannel.remove({ notificationChannelId: id(params.id) });
		} catch (err) {
			return actionError(err);
		}
		redirect(303, '/notifications');
	}
};
