import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type TinybirdRequest = {
	method: string;
	path: string;
	query: Record<string, string>;
	authorization: string | undefined;
	contentType: string | undefined;
	body: string;
	status: number;
};

// A local stand-in for Tinybird (a paid third party, unreachable here): it records every
// request exactly and answers as Tinybird's HTTP API does. Pipes answer with `pipes[name]`;
// the Events API accepts only `ingestToken` and answers 403 otherwise.
export async function startFakeTinybird(opts: {
	ingestToken: string;
	readToken: string;
	pipes?: Record<string, Array<Record<string, unknown>>>;
	// GET /v1/deployments of the read token's workspace, as the analytics CLI reads it
	// (`{ deployments: [{ id, status, live }] }`); without it that path answers 404.
	deployments?: Array<{ id: string; status: string; live: boolean }>;
	// The tinybird-local container's own endpoints, as @tinybirdco/sdk calls them
	// (dist/api/local.js: GET /tokens, GET /v1/user/workspaces?token=, POST /v1/workspaces;
	// dist/api/deploy.js: POST /v1/deploy, GET /v1/deployments/:id). `readToken` is the project
	// workspace's token; /tokens lists the default workspace's, which no pipe accepts (spec 1.4.3).
	local?: {
		workspaceName: string;
		exists: boolean; // the project workspace is there before the first listing
		deploy: 'live' | 'live-without-pipe' | 'staging' | 'refused' | 'deleted' | 'no_changes';
		down?: number; // /tokens fails this many times first (the container is starting)
	};
}) {
	const LOCAL = { user: 'user-token', admin: 'admin-token', defaultWs: 'default-ws-token' };
	let workspaceExists = opts.local?.exists ?? false;
	let tokenFailures = opts.local?.down ?? 0;
	const requests: TinybirdRequest[] = [];
	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://tinybird.test');
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const auth = req.headers.authorization;
			const answer = (status: number, body: unknown) => {
				requests.push({
					method: req.method ?? '',
					path: url.pathname,
					query: Object.fromEntries(url.searchParams),
					authorization: auth,
					contentType: req.headers['content-type'],
					body: Buffer.concat(chunks).toString('utf8'),
					status
				});
				res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
			};
			if (url.pathname === '/v0/events') {
				if (auth !== `Bearer ${opts.ingestToken}`)
					return answer(403, { error: 'Invalid token for datasource check_result' });
				const lines = Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean);
				return answer(202, { successful_rows: lines.length, quarantined_rows: 0 });
			}
			const pipe = /^\/v0\/pipes\/(.+)\.json$/.exec(url.pathname)?.[1];
			if (pipe && auth === `Bearer ${opts.readToken}` && opts.pipes?.[pipe])
				return answer(200, { meta: [], data: opts.pipes[pipe], rows: opts.pipes[pipe].length });
			if (pipe) return answer(404, { error: `The pipe '${pipe}' does not exist` });
			const local = opts.local;
			if (local && url.pathname === '/tokens') {
				if (tokenFailures-- > 0) return answer(503, { error: 'starting' });
				return answer(200, {
					user_token: LOCAL.user,
					admin_token: LOCAL.admin,
					workspace_admin_token: LOCAL.defaultWs
				});
			}
			if (local && url.pathname === '/v1/user/workspaces') {
				if (url.searchParams.get('token') !== LOCAL.admin)
					return answer(403, { error: 'invalid token' });
				const ws = [{ id: 'ws-default', name: 'Tinybird_Local_Build', token: LOCAL.defaultWs }];
				if (workspaceExists)
					ws.push({ id: 'ws-1', name: local.workspaceName, token: opts.readToken });
				return answer(200, { workspaces: ws, organization_id: 'org-1' });
			}
			if (local && url.pathname === '/v1/workspaces' && req.method === 'POST') {
				if (auth !== `Bearer ${LOCAL.user}`) return answer(403, { error: 'invalid token' });
				workspaceExists = true;
				return answer(200, { id: 'ws-1', name: local.workspaceName });
			}
			if (local && url.pathname === '/v1/deploy' && req.method === 'POST') {
				if (auth !== `Bearer ${opts.readToken}`) return answer(403, { error: 'invalid token' });
				if (local.deploy === 'no_changes') return answer(200, { result: 'no_changes' });
				if (local.deploy === 'refused')
					return answer(400, { result: 'failed', error: 'check_result.datasource: bad engine' });
				opts.deployments = [{ id: 'd1', status: 'data_ready', live: false }];
				return answer(200, {
					result: 'success',
					deployment: { id: 'd1', status: 'calculating', live: false }
				});
			}
			const stale = /^\/v1\/deployments\/([^/]+)$/.exec(url.pathname)?.[1];
			if (local && stale && req.method === 'DELETE') {
				if (auth !== `Bearer ${opts.readToken}`) return answer(403, { error: 'invalid token' });
				opts.deployments = opts.deployments?.filter((d) => d.id !== stale);
				return answer(200, {});
			}
			if (local && url.pathname === '/v1/deployments/d1') {
				if (auth !== `Bearer ${opts.readToken}`) return answer(403, { error: 'invalid token' });
				const d = opts.deployments?.[0] ?? { id: 'd1', status: 'data_ready', live: false };
				if (local.deploy === 'deleted') d.status = 'deleted';
				if (local.deploy.startsWith('live') && d.status === 'data_ready') d.live = true; // auto_promote
				if (local.deploy === 'live')
					opts.pipes = { ...opts.pipes, endpoint__http_metrics_1d__v1: [] };
				return answer(200, {
					deployment: {
						...d,
						feedback: d.status === 'deleted' ? [{ level: 'ERROR', message: 'bad engine' }] : []
					}
				});
			}
			if (url.pathname === '/v1/deployments' && opts.deployments) {
				if (auth !== `Bearer ${opts.readToken}`) return answer(403, { error: 'invalid token' });
				return answer(200, { deployments: opts.deployments });
			}
			if (/^\/v0\/datasources\/[^/]+\/delete$/.test(url.pathname))
				return answer(200, { job_id: 'j1', status: 'waiting' });
			return answer(404, { error: 'not found' });
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		close: () => new Promise<void>((r) => server.close(() => r()))
	};
}
