import { redirect } from '@sveltejs/kit';
import { actionError, loadError } from '$lib/server/errors';
import { checkbox, formValues, id, text } from '$lib/server/form';
import { componentIds, impacts } from '$lib/server/report-form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params }) => {
	const pageId = id(params.id);
	const [components, reports] = await Promise.all([
		locals.api.pageComponent.list({ pageId }),
		locals.api.statusReport.list({ pageId, filter: 'all', perPage: 200 })
	]).catch(loadError);
	return { components: components.data, reports: reports.data };
};

export const actions: Actions = {
	create: async ({ locals, params, request }) => {
		const data = await request.formData();
		const v = formValues(data);
		let reportId: number;
		try {
			({ id: reportId } = await locals.api.statusReport.create({
				pageId: id(params.id),
				title: text(v, 'title') ?? '',
				status: v.status as 'investigating',
				message: text(v, 'message') ?? '',
				pageComponentIds: componentIds(data),
				impacts: impacts(data),
				notify: checkbox(v, 'notify')
			}));
		} catch (err) {
			return actionError(err, v);
		}
		redirect(303, `/status-pages/${params.id}/reports/${reportId}`);
	}
};
