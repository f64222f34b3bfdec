import type { LoadedMaintenance } from './reports.ts';
import type { StatuspageV2Component, StatuspageV2Incident } from './schemas.ts';

export type V2Ctx = {
	url: string;
	pageId: string;
	named: (ids: number[]) => StatuspageV2Component[];
};

type V2Update = StatuspageV2Incident['incident_updates'][number];

// Atlassian's own wording for the updates its scheduler posts when a window opens and closes.
const IN_PROGRESS =
	'Scheduled maintenance is currently in progress. We will provide updates as necessary.';
const COMPLETED = 'The scheduled maintenance has been completed.';

/**
 * A maintenance window as a Statuspage scheduled maintenance. Its timeline is derived from the
 * window as Statuspage's scheduler writes it, newest first: the first update when the window was
 * created (with its message, in the state it was created in), then `in_progress` at `from` and
 * `completed` at `to` for the transitions after that. A window entered after it opened starts
 * `in_progress` (or `completed`): it was never `scheduled`. No components covers the whole page.
 */
export function toMaintenance(
	m: LoadedMaintenance,
	ctx: V2Ctx & { now: Date; allComponentIds: number[] }
): StatuspageV2Incident {
	const stateAt = (at: Date) =>
		at < m.from ? 'scheduled' : at < m.to ? 'in_progress' : 'completed';
	const status = stateAt(ctx.now);
	const created = stateAt(m.createdAt < ctx.now ? m.createdAt : ctx.now);
	const id = `m${m.id}`;
	const listed = m.components.map((c) => c.componentId);
	const components = ctx.named(listed.length > 0 ? listed : ctx.allComponentIds);
	const moved = (from: string, to: string) =>
		components.map((c) => ({ code: c.id, name: c.name, old_status: from, new_status: to }));
	const update = (n: number, at: Date, fields: Partial<V2Update>): V2Update => ({
		id: `${id}-${n}`,
		status: 'scheduled',
		body: '',
		incident_id: id,
		created_at: at.toISOString(),
		updated_at: at.toISOString(),
		display_at: at.toISOString(),
		affected_components: null,
		deliver_notifications: m.notify,
		custom_tweet: null,
		tweet_id: null,
		...fields
	});
	const opened = moved('operational', 'under_maintenance');
	const updates = [
		update(1, m.createdAt, {
			status: created,
			body: m.message || m.title,
			updated_at: m.updatedAt.toISOString(),
			affected_components: created === 'in_progress' ? opened : null
		})
	];
	if (created === 'scheduled' && status !== 'scheduled')
		updates.unshift(
			update(2, m.from, { status: 'in_progress', body: IN_PROGRESS, affected_components: opened })
		);
	if (created !== 'completed' && status === 'completed')
		updates.unshift(
			update(3, m.to, {
				status: 'completed',
				body: COMPLETED,
				affected_components: moved('under_maintenance', 'operational')
			})
		);
	return {
		id,
		name: m.title,
		status,
		created_at: m.createdAt.toISOString(),
		updated_at: m.updatedAt.toISOString(),
		monitoring_at: null,
		resolved_at: status === 'completed' ? m.to.toISOString() : null,
		impact: 'maintenance',
		shortlink: ctx.url,
		started_at: m.from.toISOString(),
		page_id: ctx.pageId,
		incident_updates: updates,
		components,
		scheduled_for: m.from.toISOString(),
		scheduled_until: m.to.toISOString()
	};
}
