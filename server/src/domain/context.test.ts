import { describe, expect, it } from 'vitest';
import { auditActor, type Actor } from './context.ts';

// Spec 2.17 and 6: who an audit entry names, for every kind of caller.
describe('auditActor', () => {
	it.each<[string, Actor, ReturnType<typeof auditActor>]>([
		[
			'dashboard user',
			{ type: 'user', userId: 5, role: 'admin' },
			{ actorType: 'user', actorId: 'user_5', actorUserId: 5 }
		],
		[
			'REST key',
			{ type: 'apiKey', keyId: 12, userId: 5, scope: 'write', via: 'rest' },
			{ actorType: 'apiKey', actorId: 'key_12', actorUserId: 5 }
		],
		[
			'MCP key',
			{ type: 'apiKey', keyId: 12, userId: null, scope: 'write', via: 'mcp' },
			{ actorType: 'mcp', actorId: 'key_12', actorUserId: null }
		],
		[
			'MCP OAuth connection',
			{ type: 'oauth', grantId: 9, userId: 5, scope: 'write' },
			{ actorType: 'mcp', actorId: 'oat_9', actorUserId: 5 }
		],
		[
			'cron job',
			{ type: 'system', job: 'private-location-health' },
			{ actorType: 'system', actorId: 'private-location-health', actorUserId: null }
		],
		[
			'probe',
			{ type: 'probe', privateLocationId: 3 },
			{ actorType: 'probe', actorId: 'location_3', actorUserId: null }
		]
	])('%s', (_name, actor, expected) => {
		expect(auditActor(actor)).toEqual(expected);
	});
});
