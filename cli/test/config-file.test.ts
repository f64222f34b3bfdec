import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemaText, SCHEMA_FILE } from '../scripts/gen-schema.ts';
import { FileError, parseUpstateFile } from '../src/iac/load.ts';

const parse = (source: string, env: Record<string, string> = {}) =>
	parseUpstateFile('upstate.yaml', source, env);
const problems = (source: string, env: Record<string, string> = {}) => {
	try {
		parse(source, env);
	} catch (err) {
		if (err instanceof FileError)
			return err.message
				.split('\n')
				.slice(1)
				.map((l) => l.trim());
		throw err;
	}
	throw new Error('the file parsed');
};

const valid = `version: 1
monitors:
  api:
    type: http
    name: API
    periodicity: 1m
    url: https://example.com/health
status_pages:
  main:
    title: Acme
    slug: acme
components:
  api:
    page: main
    type: monitor
    monitor: api
notification_channels:
  oncall:
    provider_type: slack
    slack:
      webhook_url: \${SLACK_WEBHOOK}
    monitors: [api]
`;

describe('upstate.yaml', () => {
	it('parses with the server defaults filled in and secrets read from the environment', () => {
		const { config } = parse(valid, { SLACK_WEBHOOK: 'https://hooks.example.com/T1/B2' });
		expect(config.monitors.api).toMatchObject({ timeout: 45000, retry: 3, method: 'GET' });
		expect(config.notification_channels.oncall.slack).toEqual({
			webhook_url: 'https://hooks.example.com/T1/B2'
		});
		expect(config.components.api).toMatchObject({ page: 'main', monitor: 'api', group: null });
	});

	it('names the file, line, column and field of every problem', () => {
		const source = valid
			.replace('periodicity: 1m', 'periodicity: 2m')
			.replace('slug: acme', 'slug: Acme Page\n    colour: red');
		expect(problems(source, { SLACK_WEBHOOK: 'https://hooks.example.com/x' })).toEqual([
			expect.stringMatching(/^upstate\.yaml:6:18 monitors\.api\.periodicity: Invalid option/),
			'upstate.yaml:11:11 status_pages.main.slug: use lowercase letters, digits and single dashes',
			'upstate.yaml:12:5 status_pages.main.colour: unknown field'
		]);
	});

	it('reports a variable that is not set where it is used', () => {
		expect(problems(valid)).toEqual([
			'upstate.yaml:21:20 notification_channels.oncall.slack.webhook_url: environment variable SLACK_WEBHOOK is not set: export it before running upstate'
		]);
	});

	it('refuses references to keys the file does not have', () => {
		const source = valid
			.replace('monitor: api', 'monitor: web')
			.replace('monitors: [api]', 'monitors: [api, db]');
		expect(problems(source, { SLACK_WEBHOOK: 'https://hooks.example.com/x' })).toEqual([
			'upstate.yaml:16:14 components.api.monitor: no entry "web" under monitors',
			'upstate.yaml:22:21 notification_channels.oncall.monitors[1]: no entry "db" under monitors'
		]);
	});

	it('applies the server rules that span fields (maintenance order, provider block)', () => {
		const source = `${valid}maintenance:
  upgrade:
    page: main
    title: DB upgrade
    from: 2030-01-02T00:00:00Z
    to: 2030-01-01T00:00:00Z
    notify: false
`.replace('    slack:\n      webhook_url: ${SLACK_WEBHOOK}\n', '');
		expect(problems(source)).toEqual([
			'upstate.yaml:19:5 notification_channels.oncall.slack: required for provider_type slack',
			'upstate.yaml:26:9 maintenance.upgrade.to: End date must be after start date.'
		]);
	});

	it('reports broken YAML with its position', () => {
		expect(problems('version: 1\nmonitors:\n  api: [\n')).toEqual([
			expect.stringMatching(/^upstate\.yaml:4:1 /)
		]);
		expect(problems('version: 1\nmonitors: {}\nmonitors: {}\n')).toEqual([
			expect.stringMatching(/^upstate\.yaml:3:1 Map keys must be unique/)
		]);
	});
});

describe('the JSON Schema of upstate.yaml', () => {
	it('is committed as generated (npm run gen:schema -w cli)', () => {
		expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(schemaText());
	});
});
