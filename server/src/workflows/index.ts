import { timingSafeEqual } from 'node:crypto';
import express from 'express';
import { z } from 'zod';
import type { Upstate } from '../app.ts';
import type { DeliveryWorker } from '../domain/delivery/index.ts';
import { ServiceError } from '../domain/errors.ts';
import { recordStatusChange } from '../domain/incident/index.ts';
import { findWorkspaceRef } from '../domain/workspace/index.ts';
import { mapError } from '../adapters/rest/errors.ts';
import { toServiceCtx } from './context.ts';
import { jobNamed, lastRuns, runJob } from './jobs.ts';
import { processEvents } from './status-events.ts';

const startedAt = new Date();

const StatusUpdate = z.object({
	monitorId: z.number().int(),
	workspaceId: z.number().int(),
	from: z.string(),
	to: z.enum(['active', 'degraded', 'error']),
	error: z.string(),
	at: z.string(),
	eventId: z.number().int().positive().optional() // the stored status_event (ingest)
});

function secretMatches(given: string | undefined, expected: string | undefined): boolean {
	if (!given || !expected) return false;
	const [a, b] = [Buffer.from(given), Buffer.from(expected)];
	return a.length === b.length && timingSafeEqual(a, b);
}

// Every route but /healthz is called by the ingest server or a cron caller with
// `Authorization: <CRON_SECRET>` (bare value, no scheme); anything else is refused before it acts.
function requireCronSecret(upstate: Upstate): express.RequestHandler {
	return (req, res, next) => {
		if (secretMatches(req.header('authorization'), upstate.config.cronSecret)) return next();
		console.warn(`[workflows] refused path=${req.path} reason=bad-cron-secret`);
		res.status(401).json({
			error: { code: 'UNAUTHORIZED', message: 'Authorization must be the CRON_SECRET' }
		});
	};
}

// The workflows app (port 3000): background jobs and scheduled tasks. It receives the ingest
// server's status changes, and runs a scheduled job on demand at `GET /cron/<job>` (spec 4.3).
// `deliveries` (optional) is kicked after each change so alerts leave at once; without it the
// `notification-delivery` job sends them on its next run.
export function createWorkflowsServer(args: {
	upstate: Upstate;
	deliveries?: DeliveryWorker;
}): express.Express {
	const app = express();
	app.disable('x-powered-by');
	app.use(express.json({ limit: '64kb' }));
	// Also when each job last completed here (no secrets: times only), for `npm run doctor`.
	app.get('/healthz', (_req, res) => {
		res.json({
			ok: true,
			startedAt: startedAt.toISOString(),
			lastRuns: Object.fromEntries([...lastRuns].map(([name, at]) => [name, at.toISOString()]))
		});
	});
	const authorized = requireCronSecret(args.upstate);
	app.post('/status-update', authorized, async (req, res) => {
		const update = StatusUpdate.safeParse(req.body);
		if (!update.success) {
			const { status, body } = mapError(update.error);
			res.status(status).json(body);
			return;
		}
		const u = update.data;
		const { upstate } = args;
		try {
			if (u.eventId !== undefined) {
				// The stored change (and any earlier one of this monitor still pending) is the
				// source of truth; the body only says which one arrived.
				const done = await processEvents({
					upstate,
					deliveries: args.deliveries,
					source: 'forward',
					only: { workspaceId: u.workspaceId, monitorId: u.monitorId, upToEventId: u.eventId }
				});
				const mine = done.find((d) => d.eventId === u.eventId);
				res.json(
					mine?.result ?? {
						action: 'none',
						incidentId: null,
						enqueued: 0,
						duringMaintenance: false
					}
				);
				return;
			}
			const workspace = await findWorkspaceRef({ db: upstate.db, workspaceId: u.workspaceId });
			if (!workspace) throw new ServiceError('NOT_FOUND', 'monitor not found');
			const ctx = toServiceCtx(upstate, workspace, 'status-update');
			const result = await recordStatusChange({
				ctx,
				input: { monitorId: u.monitorId, from: u.from, to: u.to, error: u.error, at: u.at },
				dashboardUrl: upstate.config.urls.dashboard
			});
			console.log(
				`[workflows] status monitor=${u.monitorId} workspace=${u.workspaceId} from=${u.from} to=${u.to} action=${result.action} incident=${result.incidentId ?? '-'} enqueued=${result.enqueued} maintenance=${result.duringMaintenance}`
			);
			if (result.enqueued > 0) args.deliveries?.kick();
			res.json(result);
		} catch (err) {
			// The one mapping every HTTP surface uses; an INTERNAL error is logged there, once.
			const { status, body } = mapError(err, `workflows status monitor=${u.monitorId}`);
			res.status(status).json(body);
		}
	});
	// Jobs a cron caller may run now. Response body: the run's counts, e.g.
	// {"checked":3,"toError":1,"toActive":0} or {"workspaces":2,"deliveries":40,"attempts":41,"ms":9}.
	for (const job of ['private-location-health', 'delivery-retention'].map(jobNamed)) {
		app.get(`/cron/${job.name}`, authorized, async (_req, res) => {
			const counts = await runJob(args.upstate, job);
			if (counts) res.json(counts);
			else
				res.status(500).json({
					error: { code: 'INTERNAL', message: `${job.name} failed: see the workflows log` }
				});
		});
	}
	return app;
}
