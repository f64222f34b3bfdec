import { AUDIT_ENTITY_TYPES } from '@upstate/server';
import { auditBlocked, auditFilter } from '$lib/server/audit-log';
import type { PageServerLoad } from './$types';

const PER_PAGE = 25;

export const load: PageServerLoad = async ({ locals, url }) => {
	const filter = auditFilter(url.searchParams);
	const base = { filter, entityTypes: AUDIT_ENTITY_TYPES, perPage: PER_PAGE };
	try {
		const [log, members] = await Promise.all([
			locals.api.auditLog.list({ ...filter, perPage: PER_PAGE }),
			locals.api.member.list()
		]);
		const emails = Object.fromEntries(members.data.map((m) => [m.user_id, m.email]));
		return { ...base, log, emails, blocked: null };
	} catch (err) {
		return { ...base, log: null, emails: {}, blocked: auditBlocked(err) };
	}
};
