import type { createCaller } from '@upstate/server';

type Api = ReturnType<typeof createCaller>;
type MonitorItem = Awaited<ReturnType<Api['monitor']['list']>>['data'][number];

// Every monitor of the workspace (the list caps a page at 50): the assignment form must show
// them all, or a monitor past the first page could not be assigned.
export async function listAllMonitors(api: Api): Promise<MonitorItem[]> {
	const all: MonitorItem[] = [];
	for (let page = 1; ; page++) {
		const { data, pagination } = await api.monitor.list({ page, perPage: 50 });
		all.push(...data);
		if (page >= pagination.totalPages || data.length === 0) return all;
	}
}

// The form posts the ids it showed (`shown_ids`) and those checked (`monitor_ids`): the save
// changes only those, so a monitor the form did not show keeps its assignment.
export function assignmentOf(data: FormData): { add: number[]; remove: number[] } {
	const add = data.getAll('monitor_ids').map(Number);
	const remove = data
		.getAll('shown_ids')
		.map(Number)
		.filter((id) => !add.includes(id));
	return { add, remove };
}
