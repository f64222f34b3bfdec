import type { createCaller } from '@upstate/server';

type Api = ReturnType<typeof createCaller>;

// What the monitor page refreshes while open: its state, the latest checks per location and
// the open incident (at most one per monitor).
export async function loadMonitorLive(api: Api, monitorId: number) {
	const [monitor, recent, incidents] = await Promise.all([
		api.monitor.get({ monitorId }),
		api.monitor.recentChecks({ monitorIds: [monitorId] }),
		api.incident.list({ filter: 'open', monitorId, perPage: 1 })
	]);
	const openIncident = incidents.data[0];
	return {
		status: monitor.status,
		active: monitor.active,
		recent: recent.monitors[0],
		openIncident: openIncident ? { id: openIncident.id, startedAt: openIncident.startedAt } : null
	};
}
export type MonitorLive = Awaited<ReturnType<typeof loadMonitorLive>>;
