import { disconnectSlack, getUpstate, slackIntegration } from '@upstate/server';
import { actionError } from '$lib/server/errors';
import { formValues } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, parent }) => {
	const [{ user, workspace, workspaces }, grants, slack] = await Promise.all([
		parent(),
		locals.api.oauth.listGrants(),
		slackIntegration({ upstate: getUpstate(), ctx: locals.ctx })
	]);
	// The verb decides; this only hides buttons a member could not use (their own apps only).
	const isMember = workspaces.find((w) => w.id === workspace.id)?.role === 'member';
	return {
		apps: grants.data.map((app) => ({ ...app, canRevoke: !isMember || app.user_id === user.id })),
		slack: { ...slack, canManage: !isMember, hasFeature: workspace.limits['slack-agent'] === true }
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
	},
	disconnectSlack: async ({ locals }) => {
		try {
			await disconnectSlack({ ctx: locals.ctx });
		} catch (err) {
			return actionError(err, {}, { notFound: 'form' });
		}
	}
};
