import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDatabaseDir } from './client.ts';

// The spec's db-migrate: applies the checked-in SQL migrations with `prisma migrate deploy`
// (JS schema engine, no download) and exits. Idempotent: a second run applies nothing.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export function migrate(databaseUrl: string, authToken?: string): void {
	ensureDatabaseDir(databaseUrl);
	const prisma = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
	const result = spawnSync(process.execPath, [prisma, 'migrate', 'deploy'], {
		cwd: root,
		// eslint-disable-next-line no-restricted-properties -- the migration child inherits the environment
		env: { ...process.env, DATABASE_URL: databaseUrl, DATABASE_AUTH_TOKEN: authToken ?? '' },
		encoding: 'utf8'
	});
	if (result.status !== 0) {
		throw new Error(
			`database migration failed for ${redact(databaseUrl)}:\n${result.stdout}\n${result.stderr}\nCheck DATABASE_URL and that the database is reachable.`
		);
	}
	const upToDate = result.stdout.includes('No pending migrations');

	console.log(
		`[db-migrate] done url=${redact(databaseUrl)} status=${upToDate ? 'up-to-date' : 'applied'}`
	);
}

function redact(url: string): string {
	return url.replace(/\/\/[^@/]*@/, '//***@');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
	const { loadDatabaseConfig } = await import('../config.ts');
	try {
		const config = loadDatabaseConfig();
		migrate(config.databaseUrl, config.databaseAuthToken);
	} catch (err) {
		console.error(err instanceof Error ? err.message : err);
		process.exit(1);
	}
}
