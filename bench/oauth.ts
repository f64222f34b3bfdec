// `npm run bench`: the MCP server with OAuth. Over real HTTP against the API server in this
// process, with 1,000 monitors in the workspace: MCP `tools/call list_monitors` req/s and p99
// with an OAuth access token and with an API key, and `/oauth/token` refresh req/s (each of 8
// connections refreshing in a chain, as rotation requires). Prints, does not assert.
import { createHash } from 'node:crypto';
import os from 'node:os';
import { createMonitor } from '../server/src/domain/monitor/index.ts';
import {
	approveAuthorization,
	checkAuthorizationRequest,
	registerClient,
	requestToken,
	sealRequest
} from '../server/src/domain/oauth/index.ts';
import { oauthDeps } from '../server/src/oauth/deps.ts';
import { createTestDb } from '../server/test/db.ts';
import { TEAM_LIMITS, createUser, createWorkspace, ctxFor } from '../server/test/factories.ts';
import { createTestUpstate, issueKey, startApi } from '../server/test/upstate.ts';
import { fmt, pct } from './stats.ts';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = 8;
const log = console.log;
console.log = () => {}; // one line per request from the API server

const { db } = await createTestDb();
// No credential or OAuth budget: the bench measures the server, not the rate limiter.
const upstate = createTestUpstate(db, {
	RATE_LIMIT_REQUESTS: String(1_000_000_000),
	RATE_LIMIT_OAUTH_REQUESTS: String(1_000_000_000)
});
const api = await startApi(upstate);
const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, monitors: MONITORS + 10 } });
const user = await createUser(db);
await db.membership.create({ data: { workspaceId: ws.id, userId: user.id, role: 'owner' } });
for (let i = 0; i < MONITORS; i++)
	await createMonitor({
		ctx: ctxFor(db, ws),
		input: { type: 'http', name: `m${i}`, periodicity: '10m', url: `https://example.com/${i}` }
	});
const apiKey = await issueKey(db, ws, 'read');

// A connection made through the verbs the endpoints call (consent, then the code exchange).
const deps = oauthDeps(upstate);
const verifier = 'bench-verifier-bench-verifier-bench-verifier';
async function connect(): Promise<{ access_token: string; refresh_token: string }> {
	const { client_id } = await registerClient({
		deps,
		input: { client_name: 'bench', redirect_uris: ['http://127.0.0.1/cb'] }
	});
	const request = await checkAuthorizationRequest({
		deps,
		input: {
			client_id,
			response_type: 'code',
			code_challenge: createHash('sha256').update(verifier).digest('base64url'),
			code_challenge_method: 'S256'
		}
	});
	const { redirectTo } = await approveAuthorization({
		deps,
		userId: user.id,
		input: { request: sealRequest(deps.requestKey, request), workspaceId: ws.id, access: 'read' }
	});
	return requestToken({
		deps,
		input: {
			grant_type: 'authorization_code',
			client_id,
			code_verifier: verifier,
			code: new URL(redirectTo).searchParams.get('code') ?? ''
		}
	});
}

// Runs `call` from CONCURRENCY workers for SECONDS; each worker's calls are sequential.
async function measure(name: string, call: (worker: number) => Promise<void>): Promise<void> {
	const latencies: number[] = [];
	const until = performance.now() + SECONDS * 1000;
	const started = performance.now();
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async (_, w) => {
			while (performance.now() < until) {
				const t = performance.now();
				await call(w);
				latencies.push(performance.now() - t);
			}
		})
	);
	const secs = (performance.now() - started) / 1000;
	latencies.sort((a, b) => a - b);
	log(
		`${name}: ${(latencies.length / secs).toFixed(0)} req/s, p50 ${fmt(pct(latencies, 50))} ms, p99 ${fmt(pct(latencies, 99))} ms (${CONCURRENCY} concurrent, ${os.cpus().length} cores)`
	);
}

const listMonitors = (headers: Record<string, string>) => async () => {
	const res = await fetch(`${api.url}/mcp`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
			...headers
		},
		body: JSON.stringify({
			jsonrpc: '2.0',
			id: 1,
			method: 'tools/call',
			params: { name: 'list_monitors', arguments: {} }
		})
	});
	if (res.status !== 200) throw new Error(`list_monitors answered ${res.status}`);
	await res.arrayBuffer();
};

const { access_token } = await connect();
await measure(
	`MCP tools/call list_monitors, ${MONITORS} monitors, OAuth token`,
	listMonitors({
		authorization: `Bearer ${access_token}`
	})
);
await measure(
	`MCP tools/call list_monitors, ${MONITORS} monitors, API key`,
	listMonitors({
		'x-service-key': apiKey
	})
);

const chains = await Promise.all(Array.from({ length: CONCURRENCY }, () => connect()));
await measure('/oauth/token refresh (rotating)', async (w) => {
	const res = await fetch(`${api.url}/oauth/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({
			grant_type: 'refresh_token',
			refresh_token: chains[w].refresh_token
		})
	});
	if (res.status !== 200) throw new Error(`refresh answered ${res.status}: ${await res.text()}`);
	chains[w] = (await res.json()) as { access_token: string; refresh_token: string };
});
await api.close();
process.exit(0);
