import type { Db } from '../../server/src/db/client.ts';
import { createTestDb } from '../../server/test/db.ts';
import { createWorkspace, TEAM_LIMITS } from '../../server/test/factories.ts';
import { createTestUpstate, issueKey, startApi } from '../../server/test/upstate.ts';

// The API server (REST, MCP and /rpc) on a real libSQL file and a free port, with a workspace
// and keys of both scopes, and the environment a CLI user would set.
export async function startCliStack() {
	const { db } = await createTestDb();
	const upstate = createTestUpstate(db, { NOTIFY_ALLOW_PRIVATE_TARGETS: 'true' });
	const api = await startApi(upstate);
	const workspace = async (limits: Record<string, unknown> = {}) => {
		const ws = await createWorkspace(db, {
			limits: { ...TEAM_LIMITS, 'audit-log': true, ...limits }
		});
		const write = await issueKey(db, ws, 'write');
		const read = await issueKey(db, ws, 'read');
		return {
			ws,
			write,
			read,
			env: { UPSTATE_API_KEY: write, UPSTATE_BASE_URL: api.url },
			readEnv: { UPSTATE_API_KEY: read, UPSTATE_BASE_URL: api.url }
		};
	};
	return { db: db as Db, upstate, api, workspace, close: api.close };
}

// REST with the same key, for changes "made by someone else" in drift tests.
export const rest =
	(base: string, key: string) => async (method: string, path: string, body?: unknown) => {
		const res = await fetch(`${base}${path}`, {
			method,
			headers: { 'x-service-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
			body: body === undefined ? undefined : JSON.stringify(body)
		});
		if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
		return res.json() as Promise<Record<string, unknown>>;
	};
