import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrismaLibSQL } from '@prisma/adapter-libsql';
import { PrismaClient } from '@prisma/client';
import { bumpPageContentVersion } from '../domain/status-page/public/render-cache.ts';

export type Db = PrismaClient;
export type { Prisma } from '@prisma/client';

// A file URL's directory is created on first use, so a fresh clone needs no setup.
export function ensureDatabaseDir(url: string): void {
	if (!url.startsWith('file:')) return;
	const file = url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length);
	mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
}

export function createDb(opts: { url: string; authToken?: string }): Db {
	ensureDatabaseDir(opts.url);
	const adapter = new PrismaLibSQL({ url: opts.url, authToken: opts.authToken });
	return withPageVersionBumps(new PrismaClient({ adapter }));
}

// Tables a public status page is rendered from: a write to any of them moves the render
// cache's content version (status-page/public/render-cache.ts).
const PAGE_MODELS = new Set([
	'Workspace',
	'Monitor',
	'Incident',
	'StatusPage',
	'ComponentGroup',
	'PageComponent',
	'StatusReport',
	'StatusReportComponent',
	'StatusReportUpdate',
	'StatusReportUpdateImpact',
	'Maintenance',
	'MaintenanceComponent'
]);
const WRITES = new Set([
	'create',
	'createMany',
	'createManyAndReturn',
	'update',
	'updateMany',
	'updateManyAndReturn',
	'upsert',
	'delete',
	'deleteMany'
]);

function withPageVersionBumps(client: PrismaClient): Db {
	const extended = client.$extends({
		query: {
			$allModels: {
				async $allOperations({ model, operation, args, query }) {
					const result = await query(args);
					if (PAGE_MODELS.has(model) && WRITES.has(operation)) bumpPageContentVersion();
					return result;
				}
			}
		}
	});
	// Safe because a query-only extension keeps every model and client method of PrismaClient.
	return extended as unknown as PrismaClient;
}
