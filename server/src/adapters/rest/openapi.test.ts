import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCommittedOpenApi } from './openapi.ts';

const committed = join(import.meta.dirname, '..', '..', '..', '..', 'openapi.json');

describe('committed openapi.json', () => {
	it('is what the router generates (run `npm run gen:openapi` after an API change)', () => {
		expect(readFileSync(committed, 'utf8')).toBe(renderCommittedOpenApi());
	});
});
