import { error, redirect } from '@sveltejs/kit';
import { getUpstate } from '@upstate/server';
import type { LayoutServerLoad } from './$types';

export const load: LayoutServerLoad = async ({ locals, url }) => {
	if (!locals.user) redirect(303, `/sign-in?next=${encodeURIComponent(url.pathname)}`);
	if (!locals.hasWorkspace)
		error(403, 'You are not a member of a workspace any more. Ask an owner to invite you again.');
	const [workspace, workspaces, instanceAdmin] = await Promise.all([
		locals.api.workspace.current(),
		locals.api.workspace.mine(),
		locals.api.admin.isInstanceAdmin()
	]);
	return {
		user: locals.user,
		workspace,
		workspaces: workspaces.data,
		instanceAdmin,
		statusPageUrl: getUpstate().config.urls.statusPage,
		// Hosted region ids exist only on the hosted service; a self-hosted install has its
		// private locations alone.
		selfHost: getUpstate().config.selfHost,
		localOutbox: getUpstate().mailer.transport === 'outbox'
	};
};
