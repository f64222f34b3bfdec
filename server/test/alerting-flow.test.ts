import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProbe } from '../../probe/src/probe.ts';
import { getIncident, listIncidents } from '../src/domain/incident/index.ts';
import { verifyWebhookSignature } from '../src/notify/index.ts';
import { CRON_SECRET, startAlertingStack } from './alerting-stack.ts';

// From a failing check to a delivered webhook with the real parts: an HTTP target, a real probe,
// the ingest server, the workflows app with its delivery worker, and a local webhook receiver.
let failing = true;
let target: http.Server;
let stack: Awaited<ReturnType<typeof startAlertingStack>>;
let probe: ReturnType<typeof createProbe>;

beforeAll(async () => {
	vi.spyOn(console, 'log').mockImplementation(() => {});
	target = http.createServer((_req, res) => {
		res.statusCode = failing ? 500 : 200;
		res.end(failing ? 'boom' : 'ok');
	});
	await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
	const port = (target.address() as AddressInfo).port;
	stack = await startAlertingStack({ targetUrl: `http://127.0.0.1:${port}/health` });
	probe = createProbe({
		config: {
			key: stack.key,
			ingestUrl: stack.ingestUrl,
			outboxFile: path.join(mkdtempSync(path.join(os.tmpdir(), 'probe-')), 'outbox.jsonl'),
			concurrency: 5
		},
		periodOf: () => 100,
		flushEveryMs: 50
	});
});
afterAll(async () => {
	probe?.stop();
	await stack?.close();
	target?.close();
	vi.restoreAllMocks();
});

async function until(cond: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
	const end = Date.now() + ms;
	while (!(await cond())) {
		if (Date.now() > end) throw new Error('timed out waiting');
		await new Promise((r) => setTimeout(r, 25));
	}
}
const received = () =>
	stack.receiver.requests.map((r) => {
		expect(
			verifyWebhookSignature({
				secret: stack.signingSecret,
				header: String(r.headers['x-upstate-signature']),
				body: r.body
			})
		).toBe(true);
		return JSON.parse(r.body) as { event: string; incident_id: number; error: string | null };
	});

describe('alerting end to end', () => {
	it('refuses a status update without the bare CRON_SECRET and records nothing', async () => {
		const res = await fetch(`${stack.workflowsUrl}/status-update`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${CRON_SECRET}` },
			body: JSON.stringify({
				monitorId: stack.monitor.id,
				workspaceId: stack.ctx.workspace.id,
				from: 'active',
				to: 'error',
				error: 'forged',
				at: new Date().toISOString()
			})
		});
		expect(res.status).toBe(401);
		expect((await listIncidents({ ctx: stack.ctx })).data).toEqual([]);
	});

	it('a failing target sends one signed alert webhook, and a recovery once it is fixed', async () => {
		await probe.start();
		await until(() => stack.receiver.requests.length >= 1);
		// The probe keeps reporting errors: the status does not change, so nothing more is sent.
		const results = await stack.upstate.analytics.countResults(stack.monitor.id);
		await until(
			async () => (await stack.upstate.analytics.countResults(stack.monitor.id)) >= results + 5
		);
		const [alert] = received();
		expect(received()).toHaveLength(1);
		expect(alert).toMatchObject({ event: 'alert', monitor: { id: stack.monitor.id } });
		expect(alert?.error).toMatch(/500/);
		expect(stack.receiver.requests[0]?.headers['x-upstate-event']).toBe('alert');
		const incident = await getIncident({
			ctx: stack.ctx,
			input: { incidentId: alert?.incident_id ?? 0 }
		});
		expect(incident).toMatchObject({ status: 'open', failingLocations: ['Local'] });

		failing = false;
		await until(() => stack.receiver.requests.length >= 2);
		const after = await stack.upstate.analytics.countResults(stack.monitor.id);
		await until(
			async () => (await stack.upstate.analytics.countResults(stack.monitor.id)) >= after + 5
		);
		expect(received().map((e) => [e.event, e.incident_id])).toEqual([
			['alert', incident.id],
			['recovery', incident.id]
		]);
		expect(await getIncident({ ctx: stack.ctx, input: { incidentId: incident.id } })).toMatchObject(
			{ status: 'resolved', autoResolved: true }
		);
		const log = await stack.db.deliveryAttempt.findMany({ where: { channelId: stack.channel.id } });
		expect(log.map((a) => [a.event, a.attempt, a.ok, a.status])).toEqual([
			['alert', 1, true, 200],
			['recovery', 1, true, 200]
		]);
	});
});
