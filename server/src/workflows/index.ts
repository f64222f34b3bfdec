import express from 'express';
import type { Upstate } from '../app.ts';

// The workflows app (port 3000): background jobs and scheduled tasks. This foundation serves
// only its health check; the status-forward endpoint and the cron jobs of spec 3.3 / 4.3 are
// mounted here by the alerting work.
export function createWorkflowsServer(_args: { upstate: Upstate }): express.Express {
	const app = express();
	app.disable('x-powered-by');
	app.get('/healthz', (_req, res) => {
		res.json({ ok: true });
	});
	return app;
}
