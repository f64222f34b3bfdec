import { actionError } from '$lib/server/errors';
import { formValues, text } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals }) => {
	const [members, invitations] = await Promise.all([
		locals.api.member.list(),
		locals.api.invitation.list()
	]);
	return { members: members.data, invitations: invitations.data };
};

export const actions: Actions = {
	rename: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.workspace.update({ name: text(v, 'name') ?? '' });
			return { saved: true };
		} catch (err) {
			return actionError(err, v);
		}
	},
	invite: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.invitation.create({
				email: text(v, 'email') ?? '',
				role: v.role === 'admin' ? 'admin' : 'member'
			});
			return { invited: v.email };
		} catch (err) {
			return actionError(err, v);
		}
	},
	revokeInvitation: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.invitation.revoke({ invitationId: Number(v.invitationId) });
		} catch (err) {
			return actionError(err, v);
		}
	},
	removeMember: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.member.remove({ userId: Number(v.userId) });
		} catch (err) {
			return actionError(err, v);
		}
	}
};
