import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PIPES } from '../src/analytics/contract.ts';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// dist/index.js → the package folder → its CLI.
const cli = path.join(
	path.dirname(fileURLToPath(import.meta.resolve('@tinybirdco/sdk'))),
	'../bin/tinybird.js'
);

// What `tinybird deploy` would push: the SDK's own generator over server/tinybird.config.json,
// offline. Every pipe of the contract must be there under its exact name.
describe('Tinybird resources defined in TypeScript', () => {
	it('generate the two datasources, the rollup view and every pipe of the contract', () => {
		const run = spawnSync(process.execPath, [cli, 'generate', '--json'], {
			cwd: serverDir,
			env: {
				PATH: process.env.PATH ?? '',
				ANALYTICS_URL: 'http://127.0.0.1:7181',
				ANALYTICS_API_KEY: 'unused'
			},
			encoding: 'utf8'
		});
		expect(run.status, run.stderr).toBe(0);
		const { artifacts } = JSON.parse(run.stdout) as {
			artifacts: Array<{ type: string; name: string; content: string }>;
		};
		const named = (type: string) =>
			artifacts
				.filter((a) => a.type === type)
				.map((a) => a.name)
				.sort();
		expect(named('datasource')).toEqual(['check_result', 'check_rollup_hour']);
		const contract = [
			...Object.values(PIPES.metrics),
			...Object.values(PIPES.latency),
			PIPES.dailyStatus,
			PIPES.responseLogs,
			PIPES.responseLogCount,
			PIPES.responseLog,
			PIPES.recentChecks,
			PIPES.counts1d
		];
		expect(named('pipe')).toEqual(['check_rollup_hour_mv', ...contract].sort());
		const content = (name: string) => artifacts.find((a) => a.name === name)?.content ?? '';
		expect(content('check_rollup_hour_mv')).toMatch(
			/TYPE MATERIALIZED\s+DATASOURCE check_rollup_hour/
		);
		// Endpoints read the rollups, never the raw results, except the response logs and the
		// heartbeat strips (the latest checks per location, with ClickHouse's LIMIT BY).
		expect(content(PIPES.recentChecks)).toMatch(
			/LIMIT \{\{ Int32\(perLocation, 50[^)]*\) \}\} BY monitor_id, location_id/
		);
		for (const name of [...Object.values(PIPES.metrics), ...Object.values(PIPES.latency)])
			expect(content(name)).toMatch(/FROM check_rollup_hour\b/);
		expect(content(PIPES.dailyStatus)).toMatch(/FROM check_rollup_hour\b/);
		expect(content(PIPES.counts1d)).toMatch(/FROM check_rollup_hour\b/);
	});
});
