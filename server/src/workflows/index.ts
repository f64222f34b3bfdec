import { timingSafeEqual } from 'node:crypto';
import express from 'express';
import { z } from 'zod';
import type { Upstate } from '../app.ts';

const StatusUpdate = z.object({
	monitorId: z.number().int(),
	workspaceId: z.number().int(),
	from: z.string(),
	to: z.enum(['active', 'degraded', 'error']),
	error: z.string(),
	at: z.string()
});

function secretMatches(given: string | undefined, expected: string | undefined): boolean {
	if (!given || !expected) return false;
	const [a, b] = [Buffer.from(given), Buffer.from(expected)];
	return a.length === b.length && timingSafeEqual(a, b);
}

// The workflows app (port 3000): background jobs and scheduled tasks. It receives the ingest
// server's status changes, authenticated by `Authorization: <CRON_SECRET>` (bare value); the
// incidents and notifications they drive, and the cron jobs of spec 3.3, come with alerting.
export function createWorkflowsServer(args: { upstate: Upstate }): express.Express {
	const app = express();
	app.disable('x-powered-by');
	app.use(express.json({ limit: '64kb' }));
	app.get('/healthz', (_req, res) => {
		res.json({ ok: true });
	});
	app.post('/status-update', (req, res) => {
		if (!secretMatches(req.header('authorization'), args.upstate.config.cronSecret)) {
			console.warn('[workflows] refused status update reason=bad-cron-secret');
			res.status(401).json({
				error: { code: 'UNAUTHORIZED', message: 'Authorization must be the CRON_SECRET' }
			});
			return;
		}
		const update = StatusUpdate.safeParse(req.body);
		if (!update.success) {
			res.status(400).json({ error: { code: 'VALIDATION', message: update.error.message } });
			return;
		}
		const u = update.data;
		console.log(
			`[workflows] status monitor=${u.monitorId} workspace=${u.workspaceId} from=${u.from} to=${u.to}`
		);
		res.json({ ok: true });
	});
	return app;
}
