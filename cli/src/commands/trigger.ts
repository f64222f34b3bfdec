import type { Api, OutputOf } from '../api.ts';
import type { Ctx } from '../context.ts';
import { CliError, EXIT } from '../errors.ts';
import { done, info, printList } from '../io.ts';

type Check =
	OutputOf<'monitor.recentChecks'>['monitors'][number]['locations'][number]['checks'][number];
const POLL_MS = 500;

// The newest check of each location (by private location id).
async function newestChecks(api: Api, monitorId: number): Promise<Map<number, Check>> {
	const { monitors } = await api.call('monitor.recentChecks', {
		monitorIds: [monitorId],
		perLocation: 1
	});
	const out = new Map<number, Check>();
	for (const l of monitors[0]?.locations ?? []) {
		const last = l.checks.at(-1);
		if (last) out.set(l.locationId, last);
	}
	return out;
}

// `monitors trigger <id> [--wait]`: the probes run the check (monitor.trigger); with --wait, until
// every location's newest check is a new one, then those results, as a table or JSON.
export async function triggerMonitor(
	ctx: Ctx,
	monitorId: number,
	flags: { wait?: boolean; waitTimeout: number }
): Promise<number | void> {
	const api = ctx.api();
	const before = flags.wait ? await newestChecks(api, monitorId) : new Map<number, Check>();
	const t = await api.call('monitor.trigger', { monitorId });
	const where = t.locations.map((l) => l.region).join(', ');
	if (!flags.wait)
		return done(
			ctx.out,
			`Triggered monitor ${monitorId} at ${where}; its results arrive as usual (\`--wait\` waits for them)`,
			t
		);
	info(ctx.out, `Triggered monitor ${monitorId} at ${where}; waiting for the results…`);
	const deadline = Date.now() + flags.waitTimeout * 1000;
	for (;;) {
		const after = await newestChecks(api, monitorId);
		const results = t.locations.flatMap((l) => {
			const check = after.get(l.privateLocationId);
			return check && check.at !== before.get(l.privateLocationId)?.at ? [{ ...l, ...check }] : [];
		});
		if (results.length === t.locations.length) return report(ctx, t, results);
		if (Date.now() > deadline) {
			const silent = t.locations.filter(
				(l) => !results.some((r) => r.privateLocationId === l.privateLocationId)
			);
			throw new CliError(
				`no new result from ${silent.map((l) => l.region).join(', ')} within ${flags.waitTimeout}s`,
				{
					hint: 'the probe there may be down or older than this server: `upstate locations list` shows when each was last seen; the request stays until it answers'
				}
			);
		}
		await new Promise((r) => setTimeout(r, POLL_MS));
	}
}

function report(
	ctx: Ctx,
	t: OutputOf<'monitor.trigger'>,
	results: Array<OutputOf<'monitor.trigger'>['locations'][number] & Check>
): number | void {
	printList(
		ctx.out,
		results,
		[
			{ header: 'LOCATION', value: (r) => r.region },
			{ header: 'TIME', value: (r) => r.at },
			{ header: 'RESULT', value: (r) => r.outcome },
			{ header: 'CODE', value: (r) => r.statusCode },
			{ header: 'MS', value: (r) => r.latency },
			{ header: 'ERROR', value: (r) => r.error }
		],
		'',
		{ ...t, results }
	);
	const failed = results.filter((r) => r.outcome === 'error').map((r) => r.region);
	if (failed.length === 0) return;
	if (ctx.out.json) return EXIT.error;
	throw new CliError(`check failed at ${failed.join(', ')}`, {
		hint: 'see the error above; `upstate check <url>` runs the same check from this machine to compare'
	});
}
