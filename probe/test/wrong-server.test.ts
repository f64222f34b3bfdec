import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiServer } from '../../server/src/api.ts';
import { createIngestHandler } from '../../server/src/ingest/index.ts';
import { createTestDb } from '../../server/test/db.ts';
import { createTestUpstate } from '../../server/test/upstate.ts';
import { healthFile } from '../src/outbox.ts';
import { createProbe } from '../src/probe.ts';
import { portOf } from './servers.ts';

// Spec 1.1: the ingest server (8081) is not the API server (3001). A probe pointed at the API
// server says so in one line, and its health file (the image's health check) says it too.
let api: http.Server;
let ingest: http.Server;
beforeAll(async () => {
	const { db } = await createTestDb();
	const upstate = createTestUpstate(db);
	api = http.createServer(createApiServer({ upstate }));
	ingest = http.createServer(createIngestHandler({ upstate }));
	await Promise.all(
		[api, ingest].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r)))
	);
});
afterAll(() => {
	api.close();
	ingest.close();
});

async function firstRefresh(port: number): Promise<{ lines: string[]; health: string }> {
	const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
	const outboxFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'probe-')), 'outbox.jsonl');
	const probe = createProbe({
		config: {
			key: 'usp_unknown',
			ingestUrl: `http://127.0.0.1:${port}`,
			outboxFile,
			concurrency: 1
		}
	});
	await probe.start();
	probe.stop();
	const lines = errors.mock.calls.map((c) => c.join(' '));
	errors.mockRestore();
	return { lines, health: readFileSync(healthFile(outboxFile), 'utf8') };
}

describe('a probe pointed at the wrong server', () => {
	it('names the API server and the ingest port in one line', async () => {
		const { lines, health } = await firstRefresh(portOf(api));
		const line = lines.find((l) => l.includes('failed to fetch monitors'));
		expect(line).toMatch(
			/SERVICE_INGEST_URL answers but is not the ingest server: point it at the ingest server, port 8081 \(private-location:8080 inside the stack's network\)/
		);
		expect(line).not.toContain('\n');
		expect(health).toMatch(/^failed to fetch monitors .* is not the ingest server/);
	});

	it('reports an unknown key at the real ingest server as what it is', async () => {
		const { lines, health } = await firstRefresh(portOf(ingest));
		const line = lines.find((l) => l.includes('failed to fetch monitors'));
		expect(line).toBeDefined();
		expect(line).not.toContain('is not the ingest server');
		expect(health).not.toMatch(/^ok/);
	});
});
