import {
	AddStatusReportUpdateInput,
	CreateStatusReportInput,
	ListStatusReportsInput,
	PublishedStatusReportOutput,
	ReportIdInput,
	ResolveStatusReportInput,
	StatusReportListOutput,
	StatusReportOutput,
	UpdateStatusReportInput,
	addStatusReportUpdate,
	createStatusReport,
	getStatusReport,
	listStatusReports,
	resolveStatusReport,
	updateStatusReport
} from '../domain/status-report/index.ts';
import { createTRPCRouter, readProcedure, writeProcedure } from './trpc.ts';

const tags = ['status reports'];
const NOTIFY =
	' `notify` is required: true notifies page subscribers in this call, false means this update is never notified. The response says whether dispatch happened (`notified`).';

// Publishing procedures hand the process notifier to the verb (spec 4.1 rules 2-4).
export const statusReportRouter = createTRPCRouter({
	list: readProcedure
		.meta({
			rest: { method: 'GET', path: '/v1/status-reports', summary: 'List status reports', tags },
			mcp: {
				name: 'list_status_reports',
				description:
					'List status reports, newest first, of every page or of one pageId. filter: active (default, excludes resolved) or all; page (1-indexed) and perPage (max 200); response has pagination.'
			}
		})
		.input(ListStatusReportsInput)
		.output(StatusReportListOutput)
		.query(({ ctx, input }) => listStatusReports({ ctx: ctx.service, input })),
	get: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/status-reports/{reportId}',
				summary: 'Get a status report with its updates',
				tags
			}
		})
		.input(ReportIdInput)
		.output(StatusReportOutput)
		.query(({ ctx, input }) => getStatusReport({ ctx: ctx.service, input })),
	create: writeProcedure
		.meta({
			rest: {
				method: 'POST',
				path: '/v1/status-reports',
				summary: 'Create a status report with its first public update',
				tags,
				successStatus: 201
			},
			mcp: {
				name: 'create_status_report',
				description:
					'Create a status report on a page (pageId from list_status_pages, pageComponentIds from list_page_components of that page) with an initial public update. status: investigating, identified or monitoring (resolve with resolve_status_report). Components given an impact join pageComponentIds.' +
					NOTIFY
			}
		})
		.input(CreateStatusReportInput)
		.output(PublishedStatusReportOutput)
		.mutation(({ ctx, input }) =>
			createStatusReport({ ctx: ctx.service, input, notifier: ctx.upstate.notify })
		),
	addUpdate: writeProcedure
		.meta({
			connect: { method: 'AddStatusReportUpdate' },
			rest: {
				method: 'POST',
				path: '/v1/status-reports/{reportId}/updates',
				summary: 'Add a public update that moves the status',
				tags,
				successStatus: 201
			},
			mcp: {
				name: 'add_status_report_update',
				description:
					'Append a public update to a status report and move it to the given status; an update on a resolved report reopens it. Components given an impact join pageComponentIds.' +
					NOTIFY
			}
		})
		.input(AddStatusReportUpdateInput)
		.output(PublishedStatusReportOutput)
		.mutation(({ ctx, input }) =>
			addStatusReportUpdate({ ctx: ctx.service, input, notifier: ctx.upstate.notify })
		),
	update: writeProcedure
		.meta({
			rest: {
				method: 'PATCH',
				path: '/v1/status-reports/{reportId}',
				summary: 'Edit report metadata (no public update)',
				tags
			},
			mcp: {
				name: 'update_status_report',
				description:
					'Edit the title or pageComponentIds of a status report without posting a public update. Never notifies. status may only repeat the current status: change it with add_status_report_update, or resolve_status_report. A component whose latest impact is not operational cannot be removed: post an update setting it to operational first.',
				idempotentHint: true
			}
		})
		.input(UpdateStatusReportInput)
		.output(StatusReportOutput)
		.mutation(({ ctx, input }) => updateStatusReport({ ctx: ctx.service, input })),
	resolve: writeProcedure
		.meta({
			rest: {
				method: 'POST',
				path: '/v1/status-reports/{reportId}/resolve',
				summary: 'Resolve a report with a final public update',
				tags
			},
			mcp: {
				name: 'resolve_status_report',
				description: 'Mark a status report resolved with a final public update.' + NOTIFY
			}
		})
		.input(ResolveStatusReportInput)
		.output(PublishedStatusReportOutput)
		.mutation(({ ctx, input }) =>
			resolveStatusReport({ ctx: ctx.service, input, notifier: ctx.upstate.notify })
		)
});
