import { listAll } from '../api.ts';
import { parseId, parseNumber } from '../context.ts';
import { done, printList, printRecord } from '../io.ts';
import type { Register } from '../program.ts';

export const registerIncidents: Register = (program, wrap) => {
	const incidents = program
		.command('incidents')
		.description('monitor incidents (opened by failing checks)');
	incidents
		.command('list')
		.option('--open', 'only open and acknowledged ones')
		.option('--monitor <id>', 'only this monitor', parseId)
		.action(
			wrap(async (ctx, f: { open?: boolean; monitor?: number }) => {
				const api = ctx.api();
				const rows = await listAll((page) =>
					api.call('incident.list', {
						filter: f.open ? 'open' : 'all',
						monitorId: f.monitor,
						page,
						perPage: 200
					})
				);
				printList(
					ctx.out,
					rows,
					[
						{ header: 'ID', value: (i) => i.id },
						{ header: 'MONITOR', value: (i) => i.monitorName },
						{ header: 'STATUS', value: (i) => i.status },
						{ header: 'STARTED', value: (i) => i.startedAt },
						{ header: 'SECONDS', value: (i) => i.durationSeconds }
					],
					f.open ? 'No open incidents.' : 'No incidents.'
				);
			})
		);
	incidents
		.command('get <id>')
		.action(
			wrap(async (ctx, id: string) =>
				printRecord(ctx.out, await ctx.api().call('incident.get', { incidentId: parseId(id) }))
			)
		);
	incidents
		.command('ack <id>')
		.alias('acknowledge')
		.description('acknowledge: stops the escalation reminders')
		.action(
			wrap(async (ctx, id: string) => {
				const i = await ctx.api().call('incident.acknowledge', { incidentId: parseId(id) });
				done(ctx.out, `Acknowledged incident ${i.id} (${i.monitorName})`, i);
			})
		);
	incidents.command('resolve <id>').action(
		wrap(async (ctx, id: string) => {
			const i = await ctx.api().call('incident.resolve', { incidentId: parseId(id) });
			done(ctx.out, `Resolved incident ${i.id} (${i.monitorName})`, i);
		})
	);

	const audit = program.command('audit-log').description('who changed what, the last 14 days');
	audit
		.command('list')
		.option('--entity-type <type>', 'e.g. monitor, status_page')
		.option('--entity-id <id>', 'with --entity-type')
		.option('--limit <n>', 'newest entries, at most 50', parseNumber, 50)
		.action(
			wrap(async (ctx, f: { entityType?: string; entityId?: string; limit: number }) => {
				const { data } = await ctx.api().call('auditLog.list', {
					perPage: f.limit,
					entityType: f.entityType,
					entityId: f.entityId
				});
				printList(
					ctx.out,
					data,
					[
						{ header: 'ID', value: (e) => e.id },
						{ header: 'WHEN', value: (e) => e.created_at },
						{ header: 'ACTOR', value: (e) => `${e.actor_type} ${e.actor_id}` },
						{ header: 'ACTION', value: (e) => e.action },
						{ header: 'ENTITY', value: (e) => `${e.entity_type} ${e.entity_id}` },
						{ header: 'FIELDS', value: (e) => e.changedFields }
					],
					'No audit entries in the last 14 days.'
				);
			})
		);
	audit
		.command('get <id>')
		.action(
			wrap(async (ctx, id: string) =>
				printRecord(ctx.out, await ctx.api().call('auditLog.get', { auditLogId: parseId(id) }))
			)
		);
};
