import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDb } from '../../test/db.ts';
import { createWorkspace, ctxFor } from '../../test/factories.ts';
import { createTestUpstate } from '../../test/upstate.ts';
import { createMonitor } from '../domain/monitor/index.ts';
import { createWorkflowsServer } from '../workflows/index.ts';
import { forwardStatusChanges } from './forward.ts';

let server: http.Server;
let url: string;
let db: Awaited<ReturnType<typeof createTestDb>>['db'];
const change = {
	monitorId: 0,
	workspaceId: 0,
	from: 'active',
	to: 'error' as const,
	error: 'connection refused'
};

beforeAll(async () => {
	({ db } = await createTestDb());
	const upstate = createTestUpstate(db, { CRON_SECRET: 's3cret' });
	const ws = await createWorkspace(db);
	const monitor = await createMonitor({
		ctx: ctxFor(db, ws),
		input: { type: 'tcp', name: 'db', periodicity: '1m', uri: 'db:5432' }
	});
	Object.assign(change, { monitorId: monitor.id, workspaceId: ws.id });
	server = await new Promise((resolve) => {
		const s = createWorkflowsServer({ upstate }).listen(0, '127.0.0.1', () => resolve(s));
	});
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe('status forward to workflows (spec 4.3)', () => {
	it('is accepted with the bare CRON_SECRET', async () => {
		const log = vi.spyOn(console, 'log').mockImplementation(() => {});
		const error = vi.spyOn(console, 'error').mockImplementation(() => {});
		try {
			await forwardStatusChanges({ workflowsUrl: url, cronSecret: 's3cret', changes: [change] });
			expect(error).not.toHaveBeenCalled();
			expect(log.mock.calls.flat().join('\n')).toContain(
				`[workflows] status monitor=${change.monitorId} workspace=${change.workspaceId} from=active to=error action=opened`
			);
		} finally {
			log.mockRestore();
			error.mockRestore();
		}
	});

	it('logs the 401 of a wrong secret and does not throw', async () => {
		const error = vi.spyOn(console, 'error').mockImplementation(() => {});
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		try {
			await forwardStatusChanges({ workflowsUrl: url, cronSecret: 'wrong', changes: [change] });
			expect(error.mock.calls.flat().join('\n')).toMatch(
				/failed to forward status update to workflows .* 401$/
			);
			const res = await fetch(`${url}/status-update`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: 'Bearer s3cret' },
				body: '{}'
			});
			expect(res.status).toBe(401);
		} finally {
			error.mockRestore();
			warn.mockRestore();
		}
	});

	it('with an eventId processes the stored change once, whichever copy arrives', async () => {
		const ws = await createWorkspace(db);
		const monitor = await createMonitor({
			ctx: ctxFor(db, ws),
			input: { type: 'tcp', name: 'cache', periodicity: '1m', uri: 'cache:6379' }
		});
		const stored = await db.statusEvent.create({
			data: {
				workspaceId: ws.id,
				monitorId: monitor.id,
				from: 'active',
				to: 'error',
				error: 'refused',
				at: new Date()
			}
		});
		const post = (body: object) =>
			fetch(`${url}/status-update`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: 's3cret' },
				body: JSON.stringify(body)
			}).then((r) => r.json() as Promise<{ action: string }>);
		const log = vi.spyOn(console, 'log').mockImplementation(() => {});
		try {
			const forward = {
				monitorId: monitor.id,
				workspaceId: ws.id,
				from: 'active',
				to: 'error',
				error: 'refused',
				at: stored.at.toISOString(),
				eventId: stored.id
			};
			// Another workspace naming this event: nothing happens.
			expect(await post({ ...forward, workspaceId: change.workspaceId })).toMatchObject({
				action: 'none'
			});
			expect(await post(forward)).toMatchObject({ action: 'opened' });
			expect(await post(forward)).toMatchObject({ action: 'none' });
			expect(await db.incident.count({ where: { monitorId: monitor.id } })).toBe(1);
			expect(log.mock.calls.flat().join('\n')).toContain(`event=${stored.id} source=forward`);
		} finally {
			log.mockRestore();
		}
	});
});

describe('workflows /status-update errors (the shared REST mapping)', () => {
	const post = (body: object) =>
		fetch(`${url}/status-update`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: 's3cret' },
			body: JSON.stringify(body)
		}).then(async (r) => ({
			status: r.status,
			body: (await r.json()) as { error: { code: string; message: string; issues?: unknown[] } }
		}));
	const valid = () => ({ ...change, at: new Date().toISOString() });

	it('answers VALIDATION naming the field, NOT_FOUND for an unknown workspace or monitor', async () => {
		const bad = await post({ ...valid(), to: 'sideways' });
		expect(bad.status).toBe(400);
		expect(bad.body.error).toMatchObject({ code: 'VALIDATION', issues: [{ path: 'to' }] });
		const gone = await post({ ...valid(), workspaceId: 999_999 });
		expect(gone).toEqual({
			status: 404,
			body: { error: { code: 'NOT_FOUND', message: 'monitor not found' } }
		});
		const other = await createWorkspace(db);
		const foreign = await post({ ...valid(), workspaceId: other.id });
		expect(foreign.status).toBe(404);
		expect(foreign.body.error.code).toBe('NOT_FOUND');
	});

	it('logs an INTERNAL error once and answers without its details', async () => {
		// A database missing the incident table: the verb fails in a way no client caused.
		const { db: broken } = await createTestDb();
		const ws = await createWorkspace(broken);
		const monitor = await createMonitor({
			ctx: ctxFor(broken, ws),
			input: { type: 'tcp', name: 'db', periodicity: '1m', uri: 'db:5432' }
		});
		await broken.$executeRawUnsafe('DROP TABLE incident');
		const app = createWorkflowsServer({
			upstate: createTestUpstate(broken, { CRON_SECRET: 's3cret' })
		});
		const srv: http.Server = await new Promise((resolve) => {
			const s = app.listen(0, '127.0.0.1', () => resolve(s));
		});
		const error = vi.spyOn(console, 'error').mockImplementation(() => {});
		try {
			const res = await fetch(
				`http://127.0.0.1:${(srv.address() as AddressInfo).port}/status-update`,
				{
					method: 'POST',
					headers: { 'content-type': 'application/json', authorization: 's3cret' },
					body: JSON.stringify({ ...valid(), monitorId: monitor.id, workspaceId: ws.id })
				}
			);
			expect(res.status).toBe(500);
			expect(await res.json()).toEqual({ error: { code: 'INTERNAL', message: 'internal error' } });
			expect(error).toHaveBeenCalledTimes(1);
			expect(String(error.mock.calls[0][0])).toMatch(
				/^\[workflows status monitor=\d+\] internal error/
			);
		} finally {
			error.mockRestore();
			srv.close();
			await broken.$disconnect();
		}
	});
});
