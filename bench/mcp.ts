// `npm run bench`, MCP: `tools/call list_monitors` over HTTP against a workspace of 1,000 monitors,
// with an API key, on both protocol revisions. The API server runs in this process; the load
// generator (autocannon) in a child process, so the two do not share an event loop.
import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { createMonitor } from '../server/src/domain/monitor/index.ts';
import { createTestDb } from '../server/test/db.ts';
import { createWorkspace, ctxFor, TEAM_LIMITS } from '../server/test/factories.ts';
import { createTestUpstate, issueKey, startApi } from '../server/test/upstate.ts';

const MONITORS = Number(process.env.BENCH_MCP_MONITORS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;

const { db } = await createTestDb();
const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, monitors: MONITORS } });
const ctx = ctxFor(db, ws);
for (let i = 0; i < MONITORS; i++)
	await createMonitor({
		ctx,
		input: { type: 'http', name: `m${i}`, periodicity: '10m', url: `https://example.com/${i}` }
	});
const key = await issueKey(db, ws, 'read');
// The limiter stays on (its cost is part of every call) with a budget the run cannot spend.
const api = await startApi(createTestUpstate(db, { RATE_LIMIT_REQUESTS: String(1_000_000_000) }));

const call = (meta?: Record<string, unknown>) =>
	JSON.stringify({
		jsonrpc: '2.0',
		id: 1,
		method: 'tools/call',
		params: { name: 'list_monitors', arguments: { perPage: 50 }, ...(meta && { _meta: meta }) }
	});

type Result = {
	requests: { average: number; total: number };
	latency: { p50: number; p99: number };
	'2xx': number;
	non2xx: number;
};

async function load(label: string, body: string, headers: Record<string, string>): Promise<void> {
	const args = [
		'node_modules/autocannon/autocannon.js',
		'--json',
		'-c',
		String(CONNECTIONS),
		'-d',
		String(SECONDS),
		'-m',
		'POST',
		'-H',
		'content-type=application/json',
		'-H',
		'accept=application/json, text/event-stream',
		'-H',
		`x-service-key=${key}`,
		...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
		'-b',
		body,
		`${api.url}/mcp`
	];
	const cpuBefore = process.cpuUsage();
	const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 1 << 24 });
	const cpu = process.cpuUsage(cpuBefore);
	const r = JSON.parse(stdout) as Result;
	// Server CPU per request says what one free core would sustain on a shared machine.
	const cpuMs = (cpu.user + cpu.system) / 1000 / Math.max(1, r.requests.total);
	console.log(
		`MCP tools/call list_monitors (${label}): ${Math.round(r.requests.average)} req/s, p50=${r.latency.p50} ms p99=${r.latency.p99} ms, ${r['2xx']}/${r.requests.total} 2xx, server CPU ${cpuMs.toFixed(1)} ms/request (~${Math.round(1000 / cpuMs)} req/s per free core)`
	);
}

console.log(
	`MCP bench (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores): ${MONITORS} monitors, API key, perPage 50, ${CONNECTIONS} connections, ${SECONDS} s each`
);
await load('2025-11-25, no initialize', call(), {});
await load(
	'2026-07-28',
	call({
		'io.modelcontextprotocol/protocolVersion': '2026-07-28',
		'io.modelcontextprotocol/clientCapabilities': {}
	}),
	{ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'list_monitors' }
);
await api.close();
await db.$disconnect();
