import {
	CreateMonitorInput,
	ListMonitorsInput,
	MonitorIdInput,
	MonitorListOutput,
	MonitorTagsOutput,
	MonitorOutput,
	UpdateMonitorInput,
	createMonitor,
	getMonitor,
	getMonitorStatus,
	getMonitorLatency,
	getMonitorSummary,
	getMonitorUptime,
	getRecentChecks,
	RecentChecksInput,
	RecentChecksOutput,
	MonitorLatencyInput,
	MonitorLatencyOutput,
	MonitorSummaryInput,
	MonitorSummaryOutput,
	MonitorUptimeOutput,
	MonitorStatusOutput,
	listMonitors,
	listMonitorTags,
	searchMonitors,
	SearchMonitorsInput,
	removeMonitor,
	triggerMonitor,
	TriggerMonitorOutput,
	updateMonitor
} from '../domain/monitor/index.ts';
import { DeletedOutput } from './shared.ts';
import { createTRPCRouter, readProcedure, writeProcedure } from './trpc.ts';

const tags = ['monitors'];

export const monitorRouter = createTRPCRouter({
	list: readProcedure
		.meta({
			rest: { method: 'GET', path: '/v1/monitors', summary: 'List monitors, newest first', tags },
			mcp: {
				name: 'list_monitors',
				description:
					'List the workspace monitors, newest first, with activeIncidentCount. Source of the numeric monitorId.'
			}
		})
		.input(ListMonitorsInput)
		.output(MonitorListOutput)
		.query(({ ctx, input }) => listMonitors({ ctx: ctx.service, input })),
	get: readProcedure
		.meta({
			rest: { method: 'GET', path: '/v1/monitors/{monitorId}', summary: 'Get a monitor', tags },
			mcp: {
				name: 'get_monitor',
				description:
					'Get one monitor: URL, regions, periodicity, retry and timeout, notification channels, tags. No latency or status (get_monitor_status has per-region health).',
				omit: ['status']
			}
		})
		.input(MonitorIdInput)
		.output(MonitorOutput)
		.query(({ ctx, input }) => getMonitor({ ctx: ctx.service, input })),
	status: readProcedure
		.meta({
			connect: { method: 'GetMonitorStatus' },
			rest: {
				method: 'GET',
				path: '/v1/monitors/{monitorId}/status',
				summary: 'Current health per location',
				tags
			},
			mcp: {
				name: 'get_monitor_status',
				description:
					'Current health of a monitor per region (private location): active, degraded or error. No time window.'
			}
		})
		.input(MonitorIdInput)
		.output(MonitorStatusOutput)
		.query(({ ctx, input }) => getMonitorStatus({ ctx: ctx.service, input })),
	summary: readProcedure
		.meta({
			connect: { method: 'GetMonitorSummary' },
			rest: {
				method: 'GET',
				path: '/v1/monitors/{monitorId}/summary',
				summary: 'Counts and p50-p99 latency over 1d, 7d or 14d',
				tags
			},
			mcp: {
				name: 'get_monitor_summary',
				description:
					'Success, degraded and error counts, p50 to p99 latency and lastPingAt of a monitor over a window of 1d (default), 7d or 14d.'
			}
		})
		.input(MonitorSummaryInput)
		.output(MonitorSummaryOutput)
		.query(({ ctx, input }) =>
			getMonitorSummary({ ctx: ctx.service, analytics: ctx.upstate.analytics, input })
		),
	// The dashboard's 90-day bar (no REST or MCP: the spec lists neither).
	uptime: readProcedure
		.input(MonitorIdInput)
		.output(MonitorUptimeOutput)
		.query(({ ctx, input }) =>
			getMonitorUptime({ ctx: ctx.service, analytics: ctx.upstate.analytics, input })
		),
	// The dashboard's monitor list: search and filters (no REST or MCP: the spec has none).
	search: readProcedure
		.input(SearchMonitorsInput)
		.output(MonitorListOutput)
		.query(({ ctx, input }) => searchMonitors({ ctx: ctx.service, input })),
	// The workspace's tags for the list's tag filter (no REST or MCP: the spec has none).
	tags: readProcedure
		.output(MonitorTagsOutput)
		.query(({ ctx }) => listMonitorTags({ ctx: ctx.service })),
	// No MCP tool: the spec's tool list (4.1) has none for latency over time.
	latency: readProcedure
		.meta({
			connect: { method: 'GetMonitorLatency' },
			rest: {
				method: 'GET',
				path: '/v1/monitors/{monitorId}/latency',
				summary: 'p50-p99 latency over time per location, over 1d, 7d or 14d',
				tags
			}
		})
		.input(MonitorLatencyInput)
		.output(MonitorLatencyOutput)
		.query(({ ctx, input }) =>
			getMonitorLatency({ ctx: ctx.service, analytics: ctx.upstate.analytics, input })
		),
	// The dashboard's heartbeat strips (no REST or MCP: the spec lists neither); on /rpc for
	// `upstate monitors trigger --wait`, which waits for a new check from every location. Kept
	// after `latency` so the proto's existing message names stay (proto/README.md).
	recentChecks: readProcedure
		.meta({ connect: { method: 'ListRecentChecks' } })
		.input(RecentChecksInput)
		.output(RecentChecksOutput)
		.query(({ ctx, input }) =>
			getRecentChecks({ ctx: ctx.service, analytics: ctx.upstate.analytics, input })
		),
	create: writeProcedure
		.meta({
			rest: {
				method: 'POST',
				path: '/v1/monitors',
				summary: 'Create a monitor',
				tags,
				successStatus: 201
			}
		})
		.input(CreateMonitorInput)
		.output(MonitorOutput)
		.mutation(({ ctx, input }) => createMonitor({ ctx: ctx.service, input })),
	update: writeProcedure
		.meta({
			rest: { method: 'PATCH', path: '/v1/monitors/{monitorId}', summary: 'Update a monitor', tags }
		})
		.input(UpdateMonitorInput)
		.output(MonitorOutput)
		.mutation(({ ctx, input }) => updateMonitor({ ctx: ctx.service, input })),
	remove: writeProcedure
		.meta({
			rest: {
				method: 'DELETE',
				path: '/v1/monitors/{monitorId}',
				summary: 'Delete a monitor',
				tags
			}
		})
		.input(MonitorIdInput)
		.output(DeletedOutput)
		.mutation(({ ctx, input }) => removeMonitor({ ctx: ctx.service, input })),
	// No MCP tool: the spec's tool list (4.1) has none. Paused → PRECONDITION_FAILED.
	trigger: writeProcedure
		.meta({
			rest: {
				method: 'POST',
				path: '/v1/monitors/{monitorId}/trigger',
				summary: "Run the monitor's check now from every location it runs from",
				tags
			}
		})
		.input(MonitorIdInput)
		.output(TriggerMonitorOutput)
		.mutation(({ ctx, input }) => triggerMonitor({ ctx: ctx.service, input }))
});
