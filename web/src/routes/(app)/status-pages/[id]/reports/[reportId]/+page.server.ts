import { error } from '@sveltejs/kit';
import { actionError, loadError } from '$lib/server/errors';
import { checkbox, formValues, id, text } from '$lib/server/form';
import { componentIds, impacts } from '$lib/server/report-form';
import type { Actions, PageServerLoad } from './$types';

type Status = 'investigating' | 'identified' | 'monitoring' | 'resolved';

export const load: PageServerLoad = async ({ locals, params }) => {
	const [report, components] = await Promise.all([
		locals.api.statusReport.get({ reportId: id(params.reportId) }),
		locals.api.pageComponent.list({ pageId: id(params.id) })
	]).catch(loadError);
	// The URL names the page too: a report of another page is not found here.
	if (report.pageId !== id(params.id)) error(404, 'Not found');
	return { report, components: components.data };
};

export const actions: Actions = {
	addUpdate: async ({ locals, params, request }) => {
		const data = await request.formData();
		const v = formValues(data);
		try {
			const reportId = id(params.reportId);
			// The server reopens a resolved report on a new update: say so rather than "Saved."
			const { status } = await locals.api.statusReport.get({ reportId });
			await locals.api.statusReport.addUpdate({
				reportId,
				status: v.status as Exclude<Status, 'resolved'>,
				message: text(v, 'message') ?? '',
				impacts: impacts(data),
				notify: checkbox(v, 'notify')
			});
			return { done: 'addUpdate', reopened: status === 'resolved' };
		} catch (err) {
			return actionError(err, v);
		}
	},
	edit: async ({ locals, params, request }) => {
		const data = await request.formData();
		const v = formValues(data);
		try {
			await locals.api.statusReport.update({
				reportId: id(params.reportId),
				title: text(v, 'title') ?? '',
				pageComponentIds: componentIds(data)
			});
			return { done: 'edit' };
		} catch (err) {
			return actionError(err, v);
		}
	},
	resolve: async ({ locals, params, request }) => {
		const data = await request.formData();
		const v = formValues(data);
		try {
			await locals.api.statusReport.resolve({
				reportId: id(params.reportId),
				message: text(v, 'message') ?? '',
				impacts: impacts(data),
				notify: checkbox(v, 'notify')
			});
			return { done: 'resolve' };
		} catch (err) {
			return actionError(err, v);
		}
	}
};
