import { createHash, randomBytes } from 'node:crypto';
import type { ApiKey } from '@prisma/client';
import { getInWorkspace, type InWorkspace } from '../transaction.ts';
import type { ApiKeyOutput } from './schemas.ts';

export const KEY_PREFIX = 'us_';

export function generateKey(): string {
	return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function hashKey(key: string): string {
	return createHash('sha256').update(key).digest('hex');
}

export async function getApiKeyInWorkspace(args: InWorkspace): Promise<ApiKey> {
	return getInWorkspace('api key', args, (where) => args.tx.apiKey.findFirst({ where }));
}

export function toApiKeyOutput(row: ApiKey): ApiKeyOutput {
	return {
		id: row.id,
		name: row.name,
		start: row.start,
		scope: row.scope as ApiKeyOutput['scope'],
		created_by_id: row.createdById,
		last_used_at: row.lastUsedAt?.toISOString() ?? null,
		revoked_at: row.revokedAt?.toISOString() ?? null,
		created_at: row.createdAt.toISOString()
	};
}
