import { actionError, loadError } from '$lib/server/errors';
import { checkbox, formValues, id, text } from '$lib/server/form';
import { componentIds, utc } from '$lib/server/report-form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params }) => {
	const pageId = id(params.id);
	const [components, maintenances] = await Promise.all([
		locals.api.pageComponent.list({ pageId }),
		locals.api.maintenance.list({ pageId, perPage: 200 })
	]).catch(loadError);
	return { components: components.data, maintenances: maintenances.data };
};

export const actions: Actions = {
	create: async ({ locals, params, request }) => {
		const data = await request.formData();
		const v = formValues(data);
		try {
			await locals.api.maintenance.create({
				pageId: id(params.id),
				title: text(v, 'title') ?? '',
				message: v.message ?? '',
				from: utc(v.from, 'from'),
				to: utc(v.to, 'to'),
				pageComponentIds: componentIds(data),
				notify: checkbox(v, 'notify')
			});
			return { done: 'create' };
		} catch (err) {
			return actionError(err, v);
		}
	},
	update: async ({ locals, request }) => {
		const data = await request.formData();
		const v = formValues(data);
		try {
			await locals.api.maintenance.update({
				maintenanceId: Number(v.maintenanceId),
				title: text(v, 'title') ?? '',
				message: v.message ?? '',
				from: utc(v.from, 'from'),
				to: utc(v.to, 'to'),
				pageComponentIds: componentIds(data)
			});
			return { done: 'update' };
		} catch (err) {
			return actionError(err, v);
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
