import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The rule of ARCHITECTURE.md that ESLint cannot see: the imports, queries and process.env
// fences are in eslint.config.js (crossed on purpose by lint.test.ts).
const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

function files(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = path.join(dir, name);
		return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
	});
}

const rel = (f: string) => path.relative(src, f);

describe('architecture', () => {
	it('opens every write transaction after requireScope and writes an audit entry inside it', () => {
		const offenders = files(path.join(src, 'domain'))
			.filter((f) => !f.endsWith('.test.ts'))
			.filter((f) => {
				const text = readFileSync(f, 'utf8');
				return (
					text.includes('withTransaction(ctx') &&
					!(text.includes("requireScope(ctx, 'write')") && text.includes('writeAudit('))
				);
			})
			.map(rel);
		expect(offenders).toEqual([]);
	});
});
