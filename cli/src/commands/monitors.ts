import type { Command } from 'commander';
import { listAll } from '../api.ts';
import { collect, parseId, parseNumber } from '../context.ts';
import { usageError } from '../errors.ts';
import { done, printList, printRecord, type Column } from '../io.ts';
import type { Register } from '../program.ts';
import { readJsonOrYaml } from './input.ts';
import { triggerMonitor } from './trigger.ts';

type MonitorRow = {
	id: number;
	name: string;
	type: string;
	periodicity: string;
	status: string;
	active: boolean;
	url?: string;
	uri?: string;
};
export const monitorColumns: Column<MonitorRow>[] = [
	{ header: 'ID', value: (m) => m.id },
	{ header: 'NAME', value: (m) => m.name },
	{ header: 'TYPE', value: (m) => m.type },
	{ header: 'TARGET', value: (m) => m.url ?? m.uri },
	{ header: 'EVERY', value: (m) => m.periodicity },
	{ header: 'STATUS', value: (m) => m.status },
	{ header: 'ACTIVE', value: (m) => (m.active ? 'yes' : 'paused') }
];

type MonitorFlags = {
	file?: string;
	type?: string;
	name?: string;
	periodicity?: string;
	url?: string;
	uri?: string;
	method?: string;
	timeout?: number;
	retry?: number;
	degradedAt?: number;
	region?: string[];
	description?: string;
	active?: boolean;
	public?: boolean;
};

// Flags for the common fields; anything else (assertions, headers, gRPC metadata) from --file,
// a JSON or YAML object with the API's field names. Flags win over the file.
function monitorFields(flags: MonitorFlags): Record<string, unknown> {
	const fromFile = flags.file ? readJsonOrYaml(flags.file) : {};
	const set: Record<string, unknown> = {
		type: flags.type,
		name: flags.name,
		periodicity: flags.periodicity,
		url: flags.url,
		uri: flags.uri,
		method: flags.method,
		timeout: flags.timeout,
		retry: flags.retry,
		degraded_at: flags.degradedAt,
		regions: flags.region?.flatMap((r) => r.split(',')).filter(Boolean),
		description: flags.description,
		active: flags.active,
		public: flags.public
	};
	return {
		...fromFile,
		...Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined))
	};
}

function fieldOptions(cmd: Command): Command {
	return cmd
		.option('-f, --file <path>', 'fields as a JSON or YAML object (API field names)')
		.option('--name <name>')
		.option('--periodicity <every>', '30s, 1m, 5m, 10m, 30m or 1h')
		.option('--url <url>', 'http monitors')
		.option('--uri <target>', 'tcp/grpc host:port, dns domain, icmp host')
		.option('--method <method>', 'http method')
		.option('--timeout <ms>', 'budget of the whole check', parseNumber)
		.option('--retry <n>', '0 to 10', parseNumber)
		.option('--degraded-at <ms>', 'latency above which a success counts as degraded', parseNumber)
		.option('--region <ids>', 'regions, comma-separated or repeated', collect)
		.option('--description <text>')
		.option('--active', 'run checks')
		.option('--no-active', 'paused')
		.option('--public', 'visible on status pages')
		.option('--no-public');
}

export const registerMonitors: Register = (program, wrap) => {
	const monitors = program
		.command('monitors')
		.description('http, tcp, dns, icmp and grpc monitors');
	monitors
		.command('list')
		.description('every monitor, newest first')
		.action(
			wrap(async (ctx) => {
				const api = ctx.api();
				const rows = await listAll((page) => api.call('monitor.list', { page, perPage: 50 }));
				printList(
					ctx.out,
					rows,
					monitorColumns,
					'No monitors yet: create one with `upstate monitors create`.'
				);
			})
		);
	monitors
		.command('get <id>')
		.description('one monitor with every field')
		.action(
			wrap(async (ctx, id: string) =>
				printRecord(ctx.out, await ctx.api().call('monitor.get', { monitorId: parseId(id) }))
			)
		);
	fieldOptions(
		monitors
			.command('create')
			.description('create a monitor')
			.option('--type <type>', 'http, tcp, dns, icmp or grpc')
	).action(
		wrap(async (ctx, flags: MonitorFlags) => {
			const input = monitorFields(flags);
			if (!input.type)
				throw usageError(
					'--type is required',
					'pass --type http|tcp|dns|icmp|grpc (or "type" in --file)'
				);
			const m = await ctx.api().call('monitor.create', input as never);
			done(
				ctx.out,
				`Created ${m.type} monitor ${m.id} "${m.name}"${m.active ? '' : ' (paused: resume it with `upstate monitors resume ' + m.id + '`)'}`,
				m
			);
		})
	);
	fieldOptions(
		monitors.command('update <id>').description('change the fields given; others stay')
	).action(
		wrap(async (ctx, id: string, flags: MonitorFlags) => {
			const fields = monitorFields(flags);
			if (Object.keys(fields).length === 0)
				throw usageError(
					'nothing to change',
					'pass the fields to change, e.g. --name or --periodicity'
				);
			const m = await ctx
				.api()
				.call('monitor.update', { monitorId: parseId(id), ...fields } as never);
			done(ctx.out, `Updated monitor ${m.id} "${m.name}"`, m);
		})
	);
	monitors
		.command('delete <id>')
		.description('delete a monitor and its results')
		.action(
			wrap(async (ctx, id: string) => {
				const r = await ctx.api().call('monitor.remove', { monitorId: parseId(id) });
				done(ctx.out, `Deleted monitor ${id}`, r);
			})
		);
	for (const [verb, active] of [
		['pause', false],
		['resume', true]
	] as const)
		monitors
			.command(`${verb} <id>`)
			.description(
				active ? 'start checking again' : 'stop checking (keeps the monitor and its history)'
			)
			.action(
				wrap(async (ctx, id: string) => {
					const m = await ctx.api().call('monitor.update', { monitorId: parseId(id), active });
					done(ctx.out, `${active ? 'Resumed' : 'Paused'} monitor ${m.id} "${m.name}"`, m);
				})
			);
	monitors
		.command('trigger <id>')
		.description(
			'ask every location the monitor runs from to run its check now (results are stored); `upstate check <url>` runs one from this machine'
		)
		.option('--wait', 'wait for the new result from every location and print them')
		.option('--wait-timeout <seconds>', 'how long --wait waits', parseNumber, 60)
		.action(
			wrap((ctx, id: string, f: { wait?: boolean; waitTimeout: number }) =>
				triggerMonitor(ctx, parseId(id), f)
			)
		);
	monitors
		.command('results <id>')
		.description('recent check results (http monitors)')
		.option('--window <w>', '1d, 7d or 14d', '1d')
		.option('--limit <n>', 'at most 100', parseNumber, 20)
		.action(
			wrap(async (ctx, id: string, flags: { window: '1d' | '7d' | '14d'; limit: number }) => {
				const logs = await ctx.api().call('responseLog.list', {
					monitorId: parseId(id),
					window: flags.window,
					limit: flags.limit
				});
				printList(
					ctx.out,
					logs.data,
					[
						{ header: 'TIME', value: (l) => l.timestamp },
						{ header: 'LOCATION', value: (l) => l.region },
						{ header: 'RESULT', value: (l) => l.status },
						{ header: 'CODE', value: (l) => l.statusCode },
						{ header: 'MS', value: (l) => l.latency }
					],
					`No results in the last ${flags.window}.`
				);
			})
		);
};
