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
const change = {
	monitorId: 0,
	workspaceId: 0,
	from: 'active',
	to: 'error' as const,
	error: 'connection refused'
};

beforeAll(async () => {
	const { db } = await createTestDb();
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
});
