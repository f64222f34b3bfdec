import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { recordStatusChange } from '../src/domain/incident/index.ts';
import { alertingWorkspace, systemCtx } from './alerting.ts';
import { createTestDb } from './db.ts';
import { createTestUpstate, errorBody, issueKey, startApi } from './upstate.ts';

let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
beforeAll(async () => {
	({ db } = await createTestDb());
	api = await startApi(createTestUpstate(db));
});
afterAll(() => api.close());

const call = (method: string, path: string, key: string) =>
	fetch(`${api.url}${path}`, { method, headers: { 'x-service-key': key } });

async function workspaceWithIncident() {
	const setup = await alertingWorkspace(db, 'https://hooks.example.com/x');
	const { incidentId } = await recordStatusChange({
		ctx: systemCtx(setup.ctx),
		input: {
			monitorId: setup.monitor.id,
			from: 'active',
			to: 'error',
			error: 'HTTP 503',
			at: new Date().toISOString()
		},
		dashboardUrl: 'http://dash.test'
	});
	return {
		...setup,
		incidentId: incidentId ?? 0,
		writeKey: await issueKey(db, setup.ws, 'write'),
		readKey: await issueKey(db, setup.ws, 'read')
	};
}

describe('incidents over REST v1 and MCP', () => {
	it('lists, gets, acknowledges and resolves an incident; the monitor counts it while open', async () => {
		const { incidentId, monitor, writeKey, readKey } = await workspaceWithIncident();
		const list = (await (await call('GET', '/v1/incidents?filter=open', readKey)).json()) as {
			data: Array<{ id: number }>;
		};
		expect(list.data.map((i) => i.id)).toEqual([incidentId]);
		const got = await call('GET', `/v1/incidents/${incidentId}`, readKey);
		expect(await got.json()).toMatchObject({ id: incidentId, status: 'open', error: 'HTTP 503' });
		const m = (await (await call('GET', `/v1/monitors/${monitor.id}`, readKey)).json()) as {
			activeIncidentCount: number;
		};
		expect(m.activeIncidentCount).toBe(1);
		const ro = await call('POST', `/v1/incidents/${incidentId}/acknowledge`, readKey);
		expect(ro.status).toBe(403);
		const ack = await call('POST', `/v1/incidents/${incidentId}/acknowledge`, writeKey);
		expect(ack.status).toBe(200);
		expect(await ack.json()).toMatchObject({ status: 'acknowledged' });
		const resolved = await call('POST', `/v1/incidents/${incidentId}/resolve`, writeKey);
		expect(await resolved.json()).toMatchObject({ status: 'resolved', autoResolved: false });
		const again = await call('POST', `/v1/incidents/${incidentId}/resolve`, writeKey);
		expect(again.status).toBe(409);
	});

	it("answers 404 for another workspace's incident", async () => {
		const a = await workspaceWithIncident();
		const b = await workspaceWithIncident();
		for (const [method, path] of [
			['GET', `/v1/incidents/${a.incidentId}`],
			['POST', `/v1/incidents/${a.incidentId}/acknowledge`],
			['POST', `/v1/incidents/${a.incidentId}/resolve`]
		] as const) {
			const res = await call(method, path, b.writeKey);
			expect(res.status).toBe(404);
			expect(await res.json()).toEqual(errorBody.notFound(`incident ${a.incidentId} not found`));
		}
		const log = await call('GET', `/v1/notifications/${a.channel.id}/deliveries`, b.readKey);
		expect(log.status).toBe(404);
		const own = await call('GET', `/v1/notifications/${a.channel.id}/deliveries`, a.readKey);
		expect(await own.json()).toEqual({ data: [] });
	});

	it('MCP list_monitors counts the open incident (activeIncidentCount)', async () => {
		const { monitor, readKey } = await workspaceWithIncident();
		const client = new Client({ name: 'test', version: '1.0.0' });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
				requestInit: { headers: { 'x-service-key': readKey } }
			})
		);
		const listed = await client.callTool({ name: 'list_monitors', arguments: { perPage: 5 } });
		expect(
			(listed.structuredContent as { data: Array<{ id: number; activeIncidentCount: number }> })
				.data
		).toEqual([expect.objectContaining({ id: monitor.id, activeIncidentCount: 1 })]);
		await client.close();
	});
});
