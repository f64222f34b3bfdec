import {
	GetResponseLogInput,
	ListResponseLogsInput,
	ResponseLogListOutput,
	ResponseLogOutput,
	getResponseLog,
	listResponseLogs
} from '../domain/response-log/index.ts';
import { createTRPCRouter, readProcedure } from './trpc.ts';

const tags = ['checks'];

export const responseLogRouter = createTRPCRouter({
	list: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/monitors/{monitorId}/response-logs',
				summary: 'Recent HTTP check results, newest first',
				tags
			},
			mcp: {
				name: 'list_response_logs',
				description:
					'Recent per-region HTTP check results (status, status code, latency) for a window of 1d, 7d or 14d; HTTP monitors only.'
			}
		})
		.input(ListResponseLogsInput)
		.output(ResponseLogListOutput)
		.query(({ ctx, input }) =>
			listResponseLogs({ ctx: ctx.service, analytics: ctx.upstate.analytics, input })
		),
	get: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/response-logs/{logId}',
				summary: 'One check result with its timing breakdown',
				tags
			},
			mcp: {
				name: 'get_response_log',
				description:
					'One check result: URL, timing breakdown (dns, connect, tls, ttfb, transfer), redacted response headers, error message, assertion results.'
			}
		})
		.input(GetResponseLogInput)
		.output(ResponseLogOutput)
		.query(({ ctx, input }) =>
			getResponseLog({ ctx: ctx.service, analytics: ctx.upstate.analytics, input })
		)
});
