import type { Prisma } from '@prisma/client';
import type { SubscriberNotifier, StatusReportEvent } from '../../notify/index.ts';
import type { ServiceContext } from '../context.ts';
import { NotFoundError } from '../errors.ts';
import { dispatchAfterCommit } from '../publish.ts';
import { getInWorkspace, type InWorkspace, type Tx } from '../transaction.ts';
import type { PublishedStatusReportOutput, StatusReportOutput } from './schemas.ts';
import { markPageChanged } from '../status-page/public/page-changes.ts';

export const reportInclude = {
	components: { select: { componentId: true }, orderBy: { componentId: 'asc' } },
	updates: {
		include: { impacts: { orderBy: { componentId: 'asc' } } },
		orderBy: [{ date: 'desc' }, { id: 'desc' }]
	}
} satisfies Prisma.StatusReportInclude;
export type ReportRow = Prisma.StatusReportGetPayload<{ include: typeof reportInclude }>;

export async function getReportInWorkspace(args: InWorkspace): Promise<ReportRow> {
	return getInWorkspace('status report', args, (where) =>
		args.tx.statusReport.findFirst({ where, include: reportInclude })
	);
}

// Components must be on the report's page, not merely in the workspace (spec 4.1 rule 6).
export async function checkComponentsOnPage(tx: Tx, pageId: number, ids: number[]): Promise<void> {
	if (ids.length === 0) return;
	const found = await tx.pageComponent.findMany({
		where: { id: { in: ids }, pageId },
		select: { id: true }
	});
	const known = new Set(found.map((c) => c.id));
	const missing = ids.find((id) => !known.has(id));
	if (missing !== undefined) throw new NotFoundError('page component', missing);
}

// A report's affected components include every component an update gives an impact (so the
// page never shows an outage on a component the report does not name).
export const affectedBy = (args: {
	pageComponentIds: number[];
	impacts: Array<{ componentId: number }>;
}): number[] => [...new Set([...args.pageComponentIds, ...args.impacts.map((i) => i.componentId)])];

export async function createUpdateRow(
	tx: Tx,
	args: {
		reportId: number;
		status: string;
		message: string;
		notify: boolean;
		impacts: Array<{ componentId: number; impact: string }>;
	}
): Promise<{ id: number }> {
	return tx.statusReportUpdate.create({
		data: {
			reportId: args.reportId,
			status: args.status,
			message: args.message,
			notify: args.notify,
			impacts: {
				create: args.impacts.map((i) => ({ componentId: i.componentId, impact: i.impact }))
			}
		},
		select: { id: true }
	});
}

// A public update on an existing report (add-update and resolve): the update row with its
// impacts and the report's new status, inside the caller's transaction. The caller audits.
export async function appendReportUpdate(args: {
	ctx: ServiceContext;
	tx: Tx;
	update: {
		reportId: number;
		status: string;
		message: string;
		notify: boolean;
		impacts: Array<{ componentId: number; impact: string }>;
	};
	resolvedAt: Date | null;
}): Promise<{ before: StatusReportOutput; report: StatusReportOutput; updateId: number }> {
	const { ctx, tx, update } = args;
	const workspaceId = ctx.workspace.id;
	const row = await getReportInWorkspace({ tx, id: update.reportId, workspaceId });
	await checkComponentsOnPage(
		tx,
		row.pageId,
		update.impacts.map((i) => i.componentId)
	);
	await markPageChanged(tx, row.pageId);
	const created = await createUpdateRow(tx, { ...update, reportId: row.id });
	const current = row.components.map((c) => c.componentId);
	const added = affectedBy({ pageComponentIds: current, impacts: update.impacts }).slice(
		current.length
	);
	await tx.statusReport.update({
		where: { id: row.id },
		data: {
			status: update.status,
			resolvedAt: args.resolvedAt,
			components: { create: added.map((componentId) => ({ componentId })) }
		}
	});
	const report = toReportOutput(await getReportInWorkspace({ tx, id: row.id, workspaceId }));
	return { before: toReportOutput(row), report, updateId: created.id };
}

export function toReportOutput(row: ReportRow): StatusReportOutput {
	type Status = StatusReportOutput['status'];
	type Impact = StatusReportOutput['updates'][number]['impacts'][number]['impact'];
	return {
		id: row.id,
		pageId: row.pageId,
		title: row.title,
		status: row.status as Status,
		pageComponentIds: row.components.map((c) => c.componentId),
		resolvedAt: row.resolvedAt?.toISOString() ?? null,
		createdAt: row.createdAt.toISOString(),
		updatedAt: row.updatedAt.toISOString(),
		updates: row.updates.map((u) => ({
			id: u.id,
			status: u.status as Status,
			message: u.message,
			date: u.date.toISOString(),
			notify: u.notify,
			notified: u.notified,
			impacts: u.impacts.map((i) => ({ componentId: i.componentId, impact: i.impact as Impact }))
		}))
	};
}

// After the commit: dispatch the new public update (never an older one, so an update stored
// with notify: false stays unnotified forever) and answer with `notified`.
export async function publishUpdate(args: {
	ctx: ServiceContext;
	notifier: SubscriberNotifier;
	notify: boolean;
	kind: StatusReportEvent['kind'];
	report: StatusReportOutput;
	updateId: number;
}): Promise<PublishedStatusReportOutput> {
	const { ctx, report, updateId } = args;
	const update = report.updates.find((u) => u.id === updateId);
	if (!update) throw new Error(`update ${updateId} missing from report ${report.id}`);
	const notified = await dispatchAfterCommit({
		ctx,
		notify: args.notify,
		send: () =>
			args.notifier.statusReport(reportEvent(args.kind, ctx.workspace.id, report, update)),
		markNotified: () =>
			ctx.db.statusReportUpdate.update({ where: { id: updateId }, data: { notified: true } })
	});
	return {
		...report,
		updates: report.updates.map((u) => (u.id === updateId ? { ...u, notified } : u)),
		notified
	};
}

function reportEvent(
	kind: StatusReportEvent['kind'],
	workspaceId: number,
	report: StatusReportOutput,
	update: { id: number; status: string; message: string }
): StatusReportEvent {
	return {
		kind,
		workspaceId,
		pageId: report.pageId,
		reportId: report.id,
		updateId: update.id,
		title: report.title,
		status: update.status,
		message: update.message,
		componentIds: report.pageComponentIds
	};
}
