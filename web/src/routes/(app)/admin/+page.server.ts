import { error, fail } from '@sveltejs/kit';
import { SELF_HOST_LIMITS, SELF_HOST_PLAN } from '@upstate/server';
import { actionError } from '$lib/server/errors';
import { formValues, text } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

// The instance admin's page: every workspace's plan and limits (spec 2.3), set here rather than
// in the database. Only the first user, or the addresses in ADMIN_EMAILS, may open it.
export const load: PageServerLoad = async ({ locals }) => {
	if (!(await locals.api.admin.isInstanceAdmin()))
		error(403, 'Only the instance admin can open this page: the first user, or ADMIN_EMAILS.');
	return { workspaces: (await locals.api.admin.workspaces()).data };
};

const presets: Record<string, { plan: string; limits: Record<string, unknown> }> = {
	'self-host': { plan: SELF_HOST_PLAN, limits: SELF_HOST_LIMITS },
	free: { plan: 'free', limits: {} }
};

export const actions: Actions = {
	save: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		const workspaceId = Number(v.workspaceId);
		const preset = presets[v.preset ?? ''];
		let limits: unknown = preset?.limits;
		if (!preset) {
			try {
				limits = JSON.parse(v.limits ?? '');
			} catch {
				return fail(400, {
					workspaceId,
					values: v,
					message: 'Limits must be a JSON object of spec 2.3 keys, e.g. {"monitors": 50}.',
					issues: [{ path: 'limits', message: 'not valid JSON' }]
				});
			}
		}
		try {
			await locals.api.admin.setWorkspacePlan({
				workspaceId,
				plan: preset?.plan ?? text(v, 'plan') ?? '',
				// safe because the router's own schema validates the shape
				limits: limits as Parameters<typeof locals.api.admin.setWorkspacePlan>[0]['limits']
			});
			return { workspaceId, saved: true };
		} catch (err) {
			const failure = actionError(err, v);
			return fail(failure.status, { workspaceId, ...failure.data });
		}
	}
};
