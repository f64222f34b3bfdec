import { error, redirect } from '@sveltejs/kit';
import { toServiceError } from '@upstate/server';
import type { PageServerLoad } from './$types';

// The invitation link: sign in first (coming back here), then join and switch to the workspace.
export const load: PageServerLoad = async ({ locals, url }) => {
	if (!locals.user) redirect(303, `/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`);
	try {
		const { workspaceId } = await locals.api.invitation.accept({
			token: url.searchParams.get('token') ?? ''
		});
		await locals.api.workspace.switch({ workspaceId });
	} catch (err) {
		const e = toServiceError(err);
		if (e.code === 'UNAUTHORIZED' || e.code === 'FORBIDDEN' || e.code === 'VALIDATION')
			error(400, e.message);
		throw err;
	}
	redirect(303, '/monitors');
};
