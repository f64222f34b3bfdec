import { error } from '@sveltejs/kit';
import { auditBlocked } from '$lib/server/audit-log';
import { id } from '$lib/server/form';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params }) => {
	const auditLogId = id(params.id);
	if (!(auditLogId > 0)) error(404, 'Not found');
	try {
		const [entry, members] = await Promise.all([
			locals.api.auditLog.get({ auditLogId }),
			locals.api.member.list()
		]);
		const email = members.data.find((m) => m.user_id === entry.actor_user_id)?.email ?? null;
		return { entry, email, blocked: null };
	} catch (err) {
		return { entry: null, email: null, blocked: auditBlocked(err) };
	}
};
