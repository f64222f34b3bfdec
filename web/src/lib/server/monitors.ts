import type { createCaller } from '@upstate/server';

type Api = ReturnType<typeof createCaller>;
type MonitorItem = Awaited<ReturnType<Api['monitor']['list']>>['data'][number];

// Every monitor of the workspace (the list caps a page at 50): a form that assigns monitors
// must show them all, or one past the first page could not be assigned and, where the form
// sends the whole set, would be unassigned by a save.
export async function listAllMonitors(api: Api): Promise<MonitorItem[]> {
	const all: MonitorItem[] = [];
	for (let page = 1; ; page++) {
		const { data, pagination } = await api.monitor.list({ page, perPage: 50 });
		all.push(...data);
		if (page >= pagination.totalPages || data.length === 0) return all;
	}
}
