// The subscriber-notification seam (spec 4.1 rules 2-4). Publishing verbs call it after their
// transaction commits; whatever it does, it either returns (notified) or throws (not notified).
// The default does nothing: subscriber delivery plugs in here by replacing `upstate.notify`.

export type StatusReportEvent = {
	kind: 'created' | 'updated' | 'resolved';
	workspaceId: number;
	pageId: number;
	reportId: number;
	updateId: number;
	title: string;
	status: string;
	message: string;
	componentIds: number[];
};

export type MaintenanceEvent = {
	kind: 'scheduled';
	workspaceId: number;
	pageId: number;
	maintenanceId: number;
	title: string;
	message: string;
	from: string;
	to: string;
	componentIds: number[];
};

export type SubscriberNotifier = {
	statusReport(event: StatusReportEvent): Promise<void>;
	maintenance(event: MaintenanceEvent): Promise<void>;
};

export function createNoopNotifier(): SubscriberNotifier {
	return {
		statusReport: async () => {},
		maintenance: async () => {}
	};
}
