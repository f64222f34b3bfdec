import { redirect } from '@sveltejs/kit';
import { actionError, loadError } from '$lib/server/errors';
import { formValues, id, int, text } from '$lib/server/form';
import { listAllMonitors } from '$lib/server/monitors';
import {
	statusPageChoices,
	statusPageUpdate,
	statusPageValues
} from '$lib/server/status-page-form';
import type { Actions, PageServerLoad } from './$types';

// Group, monitor and component ids come from form fields and may be gone by the time the form is
// sent: say so in the form rather than as a 404 page.
const notFoundInForm = { notFound: 'form' } as const;

export const load: PageServerLoad = async ({ locals, params }) => {
	const pageId = id(params.id);
	const [components, groups, monitors] = await Promise.all([
		locals.api.pageComponent.list({ pageId }),
		locals.api.componentGroup.list({ pageId }),
		listAllMonitors(locals.api)
	]).catch(loadError);
	return { components: components.data, groups: groups.data, monitors, ...statusPageChoices() };
};

export const actions: Actions = {
	update: async ({ locals, params, request }) => {
		const v = statusPageValues(await request.formData());
		try {
			await locals.api.statusPage.update(statusPageUpdate(id(params.id), v));
			return { saved: true };
		} catch (err) {
			return actionError(err, v);
		}
	},
	addComponent: async ({ locals, params, request }) => {
		const v = formValues(await request.formData());
		const monitorId = int(v, 'monitor_id');
		const common = {
			pageId: id(params.id),
			name: text(v, 'name'),
			description: text(v, 'description') ?? '',
			order: int(v, 'order'),
			group_id: int(v, 'group_id') ?? null
		};
		try {
			if (monitorId)
				await locals.api.pageComponent.create({
					...common,
					type: 'monitor',
					monitor_id: monitorId
				});
			else
				await locals.api.pageComponent.create({
					...common,
					type: 'static',
					name: common.name ?? ''
				});
			return { added: true };
		} catch (err) {
			return actionError(err, v, notFoundInForm);
		}
	},
	// Name, description, display order, group and order inside the group (spec 2.13).
	updateComponent: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.pageComponent.update({
				componentId: Number(v.componentId),
				name: text(v, 'name') ?? '',
				description: text(v, 'description') ?? '',
				order: int(v, 'order') ?? 0,
				group_id: int(v, 'group_id') ?? null,
				group_order: int(v, 'group_order') ?? 0
			});
			return { componentSaved: Number(v.componentId) };
		} catch (err) {
			return actionError(err, v, notFoundInForm);
		}
	},
	removeComponent: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.pageComponent.remove({ componentId: Number(v.componentId) });
		} catch (err) {
			return actionError(err, v, notFoundInForm);
		}
	},
	addGroup: async ({ locals, params, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.componentGroup.create({
				pageId: id(params.id),
				name: text(v, 'group_name') ?? ''
			});
		} catch (err) {
			return actionError(err, v, notFoundInForm);
		}
	},
	renameGroup: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.componentGroup.update({
				groupId: Number(v.groupId),
				name: text(v, 'group_name') ?? ''
			});
			return { groupSaved: Number(v.groupId) };
		} catch (err) {
			return actionError(err, v, notFoundInForm);
		}
	},
	// The page's ConfirmDialog sends `confirmed`. A post without it (a stale page, a hand-made
	// request) deletes nothing: the page opens that group's dialog to ask.
	removeGroup: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		if (v.confirmed !== 'yes') return { confirmRemoveGroup: Number(v.groupId) };
		try {
			await locals.api.componentGroup.remove({ groupId: Number(v.groupId) });
			return { groupRemoved: v.groupName ?? '' };
		} catch (err) {
			return actionError(err, v, notFoundInForm);
		}
	},
	delete: async ({ locals, params }) => {
		try {
			await locals.api.statusPage.remove({ pageId: id(params.id) });
		} catch (err) {
			return actionError(err);
		}
		redirect(303, '/status-pages');
	}
};
