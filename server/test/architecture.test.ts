import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The layering rules of ARCHITECTURE.md as tests, so a violation fails CI like a lint error.
const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

function files(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = path.join(dir, name);
		return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
	});
}

const rel = (f: string) => path.relative(src, f);

describe('architecture', () => {
	it('keeps Prisma out of the router and the adapters', () => {
		const offenders = [...files(path.join(src, 'router')), ...files(path.join(src, 'adapters'))]
			.filter((f) => !f.endsWith('.test.ts'))
			.filter((f) =>
				/from '@prisma\/client'|\.db\.\w+\.(find|create|update|delete|count|upsert)/.test(
					readFileSync(f, 'utf8')
				)
			)
			.map(rel);
		expect(offenders).toEqual([]);
	});

	it('reads process.env only in config.ts', () => {
		const offenders = files(src)
			.filter((f) => !f.endsWith('.test.ts') && rel(f) !== 'config.ts')
			.filter((f) =>
				/process\.env/.test(readFileSync(f, 'utf8').replace(/\{ \.\.\.process\.env/g, ''))
			)
			.map(rel);
		expect(offenders).toEqual([]);
	});

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
