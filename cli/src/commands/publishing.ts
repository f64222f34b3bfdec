import { listAll } from '../api.ts';
import { parseId, parseIds } from '../context.ts';
import { usageError } from '../errors.ts';
import { done, printList, printRecord } from '../io.ts';
import type { Register } from '../program.ts';
import { notified, requireNotify } from './notify.ts';

type ReportRow = { id: number; pageId: number; title: string; status: string; updatedAt: string };
const reportColumns = [
	{ header: 'ID', value: (r: ReportRow) => r.id },
	{ header: 'PAGE', value: (r: ReportRow) => r.pageId },
	{ header: 'TITLE', value: (r: ReportRow) => r.title },
	{ header: 'STATUS', value: (r: ReportRow) => r.status },
	{ header: 'UPDATED', value: (r: ReportRow) => r.updatedAt }
];
const STATUS_HELP = 'investigating, identified or monitoring';

export const registerPublishing: Register = (program, wrap) => {
	const reports = program
		.command('reports')
		.description('status reports (incidents on a status page)');
	reports
		.command('list')
		.option('--page <id>', 'only this status page', parseId)
		.option('--all', 'resolved ones too')
		.action(
			wrap(async (ctx, f: { page?: number; all?: boolean }) => {
				const api = ctx.api();
				const rows = await listAll((page) =>
					api.call('statusReport.list', {
						pageId: f.page,
						filter: f.all ? 'all' : 'active',
						page,
						perPage: 200
					})
				);
				printList(
					ctx.out,
					rows,
					reportColumns,
					f.all ? 'No status reports.' : 'No open status reports (--all shows resolved ones).'
				);
			})
		);
	reports
		.command('get <id>')
		.action(
			wrap(async (ctx, id: string) =>
				printRecord(ctx.out, await ctx.api().call('statusReport.get', { reportId: parseId(id) }))
			)
		);
	reports
		.command('create')
		.description('publish a report with its first update')
		.requiredOption('--page <id>', 'status page id', parseId)
		.requiredOption('--title <title>')
		.requiredOption('--status <status>', STATUS_HELP)
		.requiredOption('--message <text>')
		.option('--component <ids>', 'affected component ids, comma-separated', parseIds)
		.option('--notify', 'e-mail and webhook subscribers now')
		.option('--no-notify', 'publish without notifying (cannot be sent later)')
		.action(
			wrap(
				async (
					ctx,
					f: {
						page: number;
						title: string;
						status: string;
						message: string;
						component?: number[];
						notify?: boolean;
					}
				) => {
					const notify = requireNotify(f);
					const r = await ctx.api().call('statusReport.create', {
						pageId: f.page,
						title: f.title,
						status: f.status as never,
						message: f.message,
						pageComponentIds: f.component ?? [],
						notify
					});
					done(
						ctx.out,
						`Published report ${r.id} "${r.title}" (${r.status}); ${notified(r.notified)}`,
						r
					);
				}
			)
		);
	reports
		.command('update <id>')
		.description('edit title or components; no public update, no notification')
		.option('--title <title>')
		.option('--component <ids>', 'affected component ids, comma-separated', parseIds)
		.action(
			wrap(async (ctx, id: string, f: { title?: string; component?: number[] }) => {
				if (f.title === undefined && f.component === undefined)
					throw usageError('nothing to change', 'pass --title or --component');
				const r = await ctx.api().call('statusReport.update', {
					reportId: parseId(id),
					title: f.title,
					pageComponentIds: f.component
				});
				done(ctx.out, `Updated report ${r.id} "${r.title}"`, r);
			})
		);
	reports
		.command('add-update <id>')
		.description('post a public update and move the status')
		.requiredOption('--status <status>', STATUS_HELP)
		.requiredOption('--message <text>')
		.option('--notify', 'notify subscribers now')
		.option('--no-notify', 'post without notifying')
		.action(
			wrap(async (ctx, id: string, f: { status: string; message: string; notify?: boolean }) => {
				const notify = requireNotify(f);
				const r = await ctx.api().call('statusReport.addUpdate', {
					reportId: parseId(id),
					status: f.status as never,
					message: f.message,
					notify
				});
				done(ctx.out, `Report ${r.id} is now ${r.status}; ${notified(r.notified)}`, r);
			})
		);
	reports
		.command('resolve <id>')
		.description('close the report with a final public update')
		.requiredOption('--message <text>')
		.option('--notify', 'notify subscribers now')
		.option('--no-notify', 'resolve without notifying')
		.action(
			wrap(async (ctx, id: string, f: { message: string; notify?: boolean }) => {
				const notify = requireNotify(f);
				const r = await ctx
					.api()
					.call('statusReport.resolve', { reportId: parseId(id), message: f.message, notify });
				done(ctx.out, `Resolved report ${r.id}; ${notified(r.notified)}`, r);
			})
		);
};
