import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STATUS_PAGE_NODE_OPTIONS } from './status-site.ts';

describe('STATUS_PAGE_NODE_OPTIONS', () => {
	it('is what both compose files give the status-page container', () => {
		for (const file of ['docker-compose.yaml', 'docker-compose.light.yaml']) {
			const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
			const service = text.slice(text.indexOf('\n  status-page:'));
			expect(service.match(/NODE_OPTIONS: "([^"]*)"/)?.[1], file).toBe(STATUS_PAGE_NODE_OPTIONS);
		}
	});
});
