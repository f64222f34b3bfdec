import type { Actions, PageServerLoad } from './$types';

const STATES = ['active', 'degraded', 'error', 'unknown', 'paused'] as const;
const TYPES = ['http', 'tcp', 'dns', 'icmp', 'grpc'] as const;
const STRIP = 20;

// 50 a page, narrowed by ?q= (name or target), ?state=, ?type= and ?tag= (a GET form: no JS needed);
// each row gets its latest checks and its 24 h uptime. Unknown filter values are ignored.
// A tag as the spec bounds it (1-64 characters); anything else is no tag filter.
function tagFilter(value: string | null): string | undefined {
	const tag = value?.trim();
	return tag && tag.length <= 64 ? tag : undefined;
}

const dismissed = (workspaceId: number) => `upstate_checklist_done_${workspaceId}`;

export const load: PageServerLoad = async ({ locals, url, cookies, parent }) => {
	const { workspace } = await parent();
	const q = url.searchParams;
	const page = Math.max(1, Number.parseInt(q.get('page') ?? '1', 10) || 1);
	const filters = {
		search: q.get('q')?.trim().slice(0, 256) || undefined,
		state: STATES.find((s) => s === q.get('state')),
		type: TYPES.find((t) => t === q.get('type')),
		tag: tagFilter(q.get('tag'))
	};
	const [monitors, { tags }] = await Promise.all([
		locals.api.monitor.search({ page, perPage: 50, ...filters }),
		locals.api.monitor.tags()
	]);
	const ids = monitors.data.map((m) => m.id);
	const recent = ids.length
		? await locals.api.monitor.recentChecks({ monitorIds: ids, perLocation: STRIP })
		: { monitors: [] };
	const rows = monitors.data.map((m, i) => {
		const r = recent.monitors[i];
		const checks = r.locations
			.flatMap((l) => l.checks)
			.sort((a, b) => a.at.localeCompare(b.at))
			.slice(-STRIP);
		const { success, degraded, error } = r.day;
		const total = success + degraded + error;
		return {
			...m,
			checks,
			lastCheckAt: r.latest?.at ?? null,
			uptime24h: total ? ((success + degraded) / total) * 100 : null
		};
	});
	// The first-run checklist until it is dismissed or every step is done.
	const steps = cookies.get(dismissed(workspace.id))
		? null
		: await locals.api.workspace.checklist();
	const checklist = steps && Object.values(steps).some((done) => !done) ? steps : null;
	return {
		rows,
		pagination: monitors.pagination,
		filters,
		states: STATES,
		types: TYPES,
		tags,
		checklist
	};
};

export const actions: Actions = {
	dismissChecklist: async ({ locals, cookies }) => {
		const workspace = await locals.api.workspace.current();
		cookies.set(dismissed(workspace.id), '1', {
			path: '/',
			httpOnly: true,
			sameSite: 'lax',
			maxAge: 5 * 365 * 86_400
		});
		return { dismissed: true };
	}
};
