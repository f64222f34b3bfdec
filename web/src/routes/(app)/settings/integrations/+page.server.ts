import { actionError } from '$lib/server/errors';
import { formValues } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, parent }) => {
	const [{ user, workspace, workspaces }, grants] = await Promise.all([
		parent(),
		locals.api.oauth.listGrants()
	]);
	// The verb decides; this only hides buttons a member could not use (their own apps only).
	const isMember = workspaces.find((w) => w.id === workspace.id)?.role === 'member';
	return {
		apps: grants.data.map((app) => ({ ...app, canRevoke: !isMember || app.user_id === user.id }))
	};
};

export const actions: Actions = {
	revoke: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.oauth.revokeGrant({ grantId: Number(v.grantId) });
		} catch (err) {
			return actionError(err, v, { notFound: 'form' });
		}
	}
};
