import { randomUUID } from 'node:crypto';
import type { StoredResult } from '../src/analytics/index.ts';
import type { Db } from '../src/db/client.ts';
import type { Actor, ServiceContext } from '../src/domain/context.ts';
import { resolveLimits } from '../src/domain/limits.ts';

let seq = 0;
const unique = () =>
	`${Date.now().toString(36)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

// Generous limits for tests that are not about limits; limit tests pass their own.
export const TEAM_LIMITS = {
	monitors: 100,
	periodicity: ['30s', '1m', '5m', '10m', '30m', '1h'],
	'status-pages': 20,
	'page-components': 50,
	'max-regions': 28,
	regions: ['ams', 'fra', 'iad', 'gru', 'jnb', 'sin', 'syd', 'lhr', 'b_fra', 'c_us-west2-a'],
	otel: true,
	'response-logs': true,
	members: 'Unlimited'
};

export async function createWorkspace(
	db: Db,
	opts: { plan?: string; limits?: Record<string, unknown> } = {}
) {
	const slug = `ws-${unique()}`;
	return db.workspace.create({
		data: {
			name: slug,
			slug,
			plan: opts.plan ?? 'team',
			limits: JSON.stringify(opts.limits ?? TEAM_LIMITS)
		}
	});
}

export async function createUser(db: Db, email = `u-${unique()}@example.test`) {
	return db.user.create({ data: { email } });
}

export function ctxFor(
	db: Db,
	workspace: { id: number; plan: string; limits: string },
	actor: Actor = { type: 'user', userId: 1, role: 'owner' }
): ServiceContext {
	return {
		db,
		workspace: { id: workspace.id, plan: workspace.plan, limits: resolveLimits(workspace.limits) },
		actor,
		requestId: randomUUID()
	};
}

export const readKey = (keyId = 1): Actor => ({
	type: 'apiKey',
	keyId,
	userId: null,
	scope: 'read',
	via: 'rest'
});
export const writeKey = (keyId = 1): Actor => ({
	type: 'apiKey',
	keyId,
	userId: null,
	scope: 'write',
	via: 'rest'
});

// A stored check result: an HTTP 200 success from location 1 unless the fields say otherwise.
export const storedResult = (
	fields: Pick<StoredResult, 'workspaceId' | 'monitorId' | 'startedAt'> & Partial<StoredResult>
): StoredResult => ({
	resultId: randomUUID(),
	locationId: 1,
	latency: 10,
	outcome: 'success',
	statusCode: 200,
	error: '',
	timing: {},
	headers: {},
	assertions: '[]',
	grpcStatus: '',
	packetLoss: null,
	...fields
});
