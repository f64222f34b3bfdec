import { actionError, loadError } from '$lib/server/errors';
import { checkbox, formValues, id, text } from '$lib/server/form';
import {
	componentIds,
	rememberedTimeZone,
	rememberTimeZone,
	timeZone,
	zonedInstant
} from '$lib/server/report-form';
import { timeZoneOptions } from '$lib/time-zone';
import { orderWindows } from './phase';
import type { Actions, PageServerLoad } from './$types';

// What a failed save shows again; the ticked components travel as one comma-separated value.
const echoed = (v: Record<string, string>, data: FormData) => ({
	...v,
	pageComponentIds: componentIds(data).join(',')
});

export const load: PageServerLoad = async ({ locals, params, cookies }) => {
	const pageId = id(params.id);
	const [components, maintenances] = await Promise.all([
		locals.api.pageComponent.list({ pageId }),
		locals.api.maintenance.list({ pageId, perPage: 200 })
	]).catch(loadError);
	// null: no remembered zone, so the page uses the browser's (UTC without JavaScript).
	const timeZone = rememberedTimeZone(cookies);
	return {
		components: components.data,
		maintenances: orderWindows(maintenances.data, new Date()),
		timeZone,
		timeZones: timeZoneOptions(timeZone ? [timeZone] : [])
	};
};

export const actions: Actions = {
	create: async ({ locals, params, request, cookies }) => {
		const data = await request.formData();
		const v = formValues(data);
		try {
			const zone = timeZone(v);
			await locals.api.maintenance.create({
				pageId: id(params.id),
				title: text(v, 'title') ?? '',
				message: v.message ?? '',
				from: zonedInstant(v, 'from', zone),
				to: zonedInstant(v, 'to', zone),
				pageComponentIds: componentIds(data),
				notify: checkbox(v, 'notify')
			});
			rememberTimeZone(cookies, zone);
			return { done: 'create' };
		} catch (err) {
			return actionError(err, echoed(v, data));
		}
	},
	update: async ({ locals, request, cookies }) => {
		const data = await request.formData();
		const v = formValues(data);
		try {
			const zone = timeZone(v);
			await locals.api.maintenance.update({
				maintenanceId: Number(v.maintenanceId),
				title: text(v, 'title') ?? '',
				message: v.message ?? '',
				from: zonedInstant(v, 'from', zone),
				to: zonedInstant(v, 'to', zone),
				pageComponentIds: componentIds(data)
			});
			rememberTimeZone(cookies, zone);
			return { done: 'update', title: text(v, 'title') ?? '' };
		} catch (err) {
			return actionError(err, echoed(v, data));
		}
	},
	remove: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.maintenance.remove({ maintenanceId: Number(v.maintenanceId) });
			return { done: 'remove' };
		} catch (err) {
			return actionError(err, v);
		}
	}
};
