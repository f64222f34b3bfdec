import { CreateMonitorInput } from '@upstate/server/schemas';
import { runCheck, type ProbeMonitor } from '@upstate/probe/src/checks/index.ts';
import { collect, parseNumber, type Ctx } from '../context.ts';
import { CliError, EXIT, usageError } from '../errors.ts';
import { printJson, printList, printRecord } from '../io.ts';
import type { Register } from '../program.ts';
import { zodProblems } from '../iac/load.ts';

type CheckFlags = {
	type?: string;
	method?: string;
	header?: string[];
	body?: string;
	timeout?: number;
	followRedirects: boolean;
	expectStatus?: number;
	service?: string;
	tls?: string;
	timing?: boolean;
};

// The monitor a one-off check runs: the server's create input (its rules and defaults), then
// the shape the probe takes. No retries: one attempt, as from a terminal you would expect.
function monitorFor(target: string, f: CheckFlags): ProbeMonitor {
	const type = f.type ?? (/^https?:\/\//i.test(target) ? 'http' : undefined);
	if (!type)
		throw usageError(
			`cannot tell the check type of "${target}"`,
			'pass --type tcp|dns|icmp|grpc, or an http(s):// URL'
		);
	const headers = (f.header ?? []).map((h) => {
		const at = h.indexOf(':');
		if (at < 1) throw usageError(`"${h}" is not a header`, 'write it as --header "Name: value"');
		return { key: h.slice(0, at).trim(), value: h.slice(at + 1).trim() };
	});
	const input = {
		type,
		name: 'upstate check',
		periodicity: '1m',
		retry: 0,
		...(f.timeout !== undefined ? { timeout: f.timeout } : {}),
		...(type === 'http'
			? {
					url: target,
					method: f.method?.toUpperCase(),
					headers,
					body: f.body,
					follow_redirects: f.followRedirects,
					status_code_assertions: f.expectStatus
						? [{ comparator: 'eq', target: f.expectStatus }]
						: []
				}
			: { uri: target }),
		...(type === 'grpc' ? { service: f.service, tls: f.tls } : {})
	};
	return toProbeMonitor(input);
}

// Any monitor's fields → what the probe runs: checked by the server's create input (its rules
// and defaults) first.
export function toProbeMonitor(input: Record<string, unknown>): ProbeMonitor {
	const parsed = CreateMonitorInput.safeParse(JSON.parse(JSON.stringify(input)));
	if (!parsed.success)
		throw usageError(
			zodProblems(parsed.error)
				.map((p) => `${p.path.join('.') || 'target'}: ${p.message}`)
				.join('; '),
			'fix the target or the flag named and run again'
		);
	const { open_telemetry: _otel, regions: _regions, ...fields } = parsed.data;
	// safe because the create input of each type carries every field the probe's type names
	return { ...fields, id: 0 } as unknown as ProbeMonitor;
}

// One check now, printed: outcome, status, latency, assertions and (with timing) the phases.
export async function runAndReport(
	ctx: Ctx,
	monitor: ProbeMonitor,
	timing: boolean
): Promise<number | void> {
	const result = await runCheck(monitor);
	if (ctx.out.json) printJson(ctx.out, result);
	else if (!ctx.out.quiet) {
		const c = ctx.out.color;
		const word =
			result.outcome === 'success' ? c.green : result.outcome === 'degraded' ? c.yellow : c.red;
		printRecord(ctx.out, {
			outcome: word(result.outcome),
			status: result.statusCode ?? result.grpcStatus,
			latency: `${result.latency} ms`,
			error: result.error,
			assertions: result.assertions?.map(
				(a) => `${a.passed ? '✓' : '✗'} ${a.description} (got ${a.actual})`
			)
		});
		if (timing) {
			const t = result.timing ?? {};
			printList(
				ctx.out,
				(['dns', 'connect', 'tls', 'ttfb', 'transfer'] as const).map((phase) => ({
					phase,
					ms: t[phase]
				})),
				[
					{ header: 'PHASE', value: (r) => r.phase },
					{ header: 'MS', value: (r) => (r.ms === undefined ? '-' : r.ms.toFixed(1)) }
				],
				''
			);
		}
	}
	if (result.outcome === 'error') {
		if (ctx.out.json) return EXIT.error;
		throw new CliError(`check failed: ${result.error ?? 'no detail'}`, {
			hint: 'the target answered badly or not at all from this machine; compare with `upstate monitors results <id>` from your locations'
		});
	}
}

export const registerCheck: Register = (program, wrap) => {
	program
		.command('check <target>')
		.description(
			"run one check from this machine with the probe's own code (an http(s) URL, or host:port, domain or host with --type)"
		)
		.option('--type <type>', 'http (default for URLs), tcp, dns, icmp or grpc')
		.option('--method <method>', 'http method', 'GET')
		.option('-H, --header <header>', 'request header "Name: value" (repeatable)', collect)
		.option('--body <text>', 'request body')
		.option('--timeout <ms>', 'budget of the whole check (default 45000)', parseNumber)
		.option('--no-follow-redirects', 'report a redirect instead of following it')
		.option('--expect-status <code>', 'fail unless the status code is this', parseNumber)
		.option('--service <name>', 'grpc: the service to ask about (empty: the whole server)')
		.option('--tls <mode>', 'grpc: verify, skip-verify or plaintext')
		.option('--timing', 'show dns, connect, tls, ttfb and transfer')
		.action(
			wrap(async (ctx, target: string, f: CheckFlags) => {
				return runAndReport(ctx, monitorFor(target, f), !!f.timing);
			})
		);
};
