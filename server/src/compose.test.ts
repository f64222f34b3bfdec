import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVICES } from './config.ts';

const text = readFileSync(new URL('../../docker-compose.yaml', import.meta.url), 'utf8');
// Top-level service blocks of the compose file, by name (two-space indent).
const services = Object.fromEntries(
	text
		.slice(text.indexOf('\nservices:'), text.indexOf('\nvolumes:'))
		.split(/\n(?= {2}[a-z-]+:\n)/)
		.slice(1)
		.map((block) => [block.trim().split(':')[0], block])
);
const anchor = text.slice(text.indexOf('x-app: &app'), text.indexOf('\nservices:'));

describe('docker-compose.yaml (full stack)', () => {
	it('runs the ingest server on 8081, forwarding to workflows with CRON_SECRET', () => {
		expect(services.ingest).toMatch(/UPSTATE_SERVICES: "ingest,local-probe"/);
		expect(services.ingest).toMatch(/"8081:8081"/);
		expect(anchor).toMatch(/WORKFLOWS_URL: http:\/\/workflows:3000/);
		expect(anchor).toMatch(/CRON_SECRET: \$\{CRON_SECRET/);
	});

	it('runs every service once, the Local probe beside the ingest server it reports to', () => {
		const run = Object.values(services).flatMap((b) => {
			const m = b.match(/UPSTATE_SERVICES: (?:"([a-z,-]+)"|([a-z-]+))/);
			return m ? (m[1] ?? m[2]).split(',') : [];
		});
		expect(run.sort()).toEqual([...SERVICES].sort());
		// The probe reports to 127.0.0.1:<INGEST_PORT>: the ingest server must share its container.
		expect(services.ingest).toMatch(/local-probe/);
	});

	it('gives every app service the same DATA_DIR volume (the embedded analytics file)', () => {
		expect(anchor).toMatch(/volumes: \[app-data:\/data\]/);
		const apps = Object.entries(services).filter(([, b]) => /UPSTATE_SERVICES:/.test(b));
		expect(apps.map(([name]) => name).sort()).toEqual([
			'dashboard',
			'ingest',
			'server',
			'status-page',
			'workflows'
		]);
		for (const [name, block] of apps) {
			expect(block, name).toMatch(/<<: \*app/);
			expect(block, name).not.toMatch(/volumes:/);
		}
	});
});
