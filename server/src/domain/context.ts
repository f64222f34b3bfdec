import type { Db } from '../db/client.ts';
import { ForbiddenError } from './errors.ts';
import type { Limits } from './limits.ts';

export type Scope = 'read' | 'write';

// Who is acting. Built by adapters (toServiceCtx), never by the domain.
export type Actor =
	| { type: 'user'; userId: number; role: 'owner' | 'admin' | 'member' }
	| {
			type: 'apiKey';
			keyId: number;
			userId: number | null;
			scope: Scope;
			via: 'rest' | 'mcp' | 'rpc';
	  }
	| { type: 'oauth'; grantId: number; userId: number; scope: Scope }
	| { type: 'system'; job: string }
	| { type: 'probe'; privateLocationId: number };

export type WorkspaceRef = { id: number; plan: string; limits: Limits };

export type ServiceContext = {
	db: Db;
	workspace: WorkspaceRef;
	actor: Actor;
	requestId: string;
};

export function actorScope(actor: Actor): Scope {
	if (actor.type === 'apiKey' || actor.type === 'oauth') return actor.scope;
	return 'write';
}

// The real scope boundary (spec 5.2): every write verb calls this first.
export function requireScope(ctx: ServiceContext, scope: Scope): void {
	if (scope === 'write' && actorScope(ctx.actor) !== 'write') {
		console.warn(
			`[scope] denied actor=${ctx.actor.type} workspaceId=${ctx.workspace.id} required=write requestId=${ctx.requestId}`
		);
		throw new ForbiddenError('this credential is read-only: a write-scoped key is required');
	}
}

export function requireRole(ctx: ServiceContext, roles: Array<'owner' | 'admin' | 'member'>): void {
	if (ctx.actor.type === 'user' && !roles.includes(ctx.actor.role)) {
		throw new ForbiddenError(`this action needs the role ${roles.join(' or ')}`);
	}
}

// Audit columns (spec 2.17): MCP mutations are recorded with actor_type = mcp.
export function auditActor(actor: Actor): {
	actorType: string;
	actorId: string;
	actorUserId: number | null;
} {
	switch (actor.type) {
		case 'user':
			return { actorType: 'user', actorId: `user_${actor.userId}`, actorUserId: actor.userId };
		case 'apiKey':
			return {
				actorType: actor.via === 'mcp' ? 'mcp' : 'apiKey',
				actorId: `key_${actor.keyId}`,
				actorUserId: actor.userId
			};
		case 'oauth':
			return { actorType: 'mcp', actorId: `oat_${actor.grantId}`, actorUserId: actor.userId };
		case 'system':
			return { actorType: 'system', actorId: actor.job, actorUserId: null };
		case 'probe':
			return {
				actorType: 'probe',
				actorId: `location_${actor.privateLocationId}`,
				actorUserId: null
			};
	}
}
