import { listAll } from '../api.ts';
import { parseId, parseIds } from '../context.ts';
import { done, printList, printRecord } from '../io.ts';
import type { Register } from '../program.ts';
import { notified, requireNotify } from './notify.ts';

export const registerMaintenance: Register = (program, wrap) => {
	const maintenance = program.command('maintenance').description('scheduled maintenance windows');
	maintenance
		.command('list')
		.option('--page <id>', 'only this status page', parseId)
		.action(
			wrap(async (ctx, f: { page?: number }) => {
				const api = ctx.api();
				const rows = await listAll((page) =>
					api.call('maintenance.list', { pageId: f.page, page, perPage: 200 })
				);
				printList(
					ctx.out,
					rows,
					[
						{ header: 'ID', value: (m) => m.id },
						{ header: 'PAGE', value: (m) => m.pageId },
						{ header: 'TITLE', value: (m) => m.title },
						{ header: 'FROM', value: (m) => m.from },
						{ header: 'TO', value: (m) => m.to }
					],
					'No maintenance windows.'
				);
			})
		);
	maintenance
		.command('get <id>')
		.action(
			wrap(async (ctx, id: string) =>
				printRecord(
					ctx.out,
					await ctx.api().call('maintenance.get', { maintenanceId: parseId(id) })
				)
			)
		);
	maintenance
		.command('create')
		.description('schedule a window (publishes it)')
		.requiredOption('--page <id>', 'status page id', parseId)
		.requiredOption('--title <title>')
		.requiredOption('--from <iso>', 'start, ISO 8601 with a zone: 2030-01-01T02:00:00Z')
		.requiredOption('--to <iso>', 'end, after --from')
		.option('--message <text>')
		.option('--component <ids>', 'affected component ids, comma-separated', parseIds)
		.option('--notify', 'notify subscribers now')
		.option('--no-notify', 'schedule without notifying')
		.action(
			wrap(
				async (
					ctx,
					f: {
						page: number;
						title: string;
						from: string;
						to: string;
						message?: string;
						component?: number[];
						notify?: boolean;
					}
				) => {
					const notify = requireNotify(f);
					const m = await ctx.api().call('maintenance.create', {
						pageId: f.page,
						title: f.title,
						message: f.message,
						from: f.from,
						to: f.to,
						pageComponentIds: f.component ?? [],
						notify
					});
					done(
						ctx.out,
						`Scheduled maintenance ${m.id} "${m.title}" ${m.from} → ${m.to}; ${notified(m.notified)}`,
						m
					);
				}
			)
		);
	maintenance
		.command('update <id>')
		.description('edit a window (no notification)')
		.option('--title <title>')
		.option('--message <text>')
		.option('--from <iso>')
		.option('--to <iso>')
		.option('--component <ids>', 'affected component ids, comma-separated', parseIds)
		.action(
			wrap(
				async (
					ctx,
					id: string,
					f: { title?: string; message?: string; from?: string; to?: string; component?: number[] }
				) => {
					const m = await ctx.api().call('maintenance.update', {
						maintenanceId: parseId(id),
						title: f.title,
						message: f.message,
						from: f.from,
						to: f.to,
						pageComponentIds: f.component
					});
					done(ctx.out, `Updated maintenance ${m.id} "${m.title}"`, m);
				}
			)
		);
	maintenance
		.command('delete <id>')
		.action(
			wrap(async (ctx, id: string) =>
				done(
					ctx.out,
					`Deleted maintenance ${id}`,
					await ctx.api().call('maintenance.remove', { maintenanceId: parseId(id) })
				)
			)
		);
};
