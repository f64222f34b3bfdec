import type { Db } from '../db/client.ts';
import { ForbiddenError } from './errors.ts';
import type { Limits } from './limits.ts';

export type Scope = 'read' | 'write';

// Who is acting. Built by adapters (toServiceCtx), never by the domain.
export type Actor =
	| { type: 'user'; userId: number; role: Role }
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

export type Role = 'owner' | 'admin' | 'member';

// Administration (keys, members, invitations, workspace settings) needs a role. A dashboard user
// has one; an API key or an OAuth connection acts with the current role of the member who made
// it, so a demoted or departed member's key loses what they lost. Jobs and probes are ours.
export async function requireRole(ctx: ServiceContext, roles: Role[]): Promise<void> {
	const { actor } = ctx;
	if (actor.type === 'system' || actor.type === 'probe') return;
	const role = actor.type === 'user' ? actor.role : await memberRole(ctx, actor.userId);
	if (role && roles.includes(role)) return;
	const needs = `this action needs the role ${roles.join(' or ')}`;
	if (actor.type === 'user') throw new ForbiddenError(needs);
	const [a, what] = actor.type === 'apiKey' ? ['an', 'API key'] : ['a', 'connected app'];
	throw new ForbiddenError(
		role
			? `${needs}; ${a} ${what} acts with the role of the member who created it (${role})`
			: `${needs}; no current member of the workspace stands behind this ${what}: ask an owner or admin to issue a new one`
	);
}

// The person a credential acts for, if any: keys made by a key or an app keep that person.
export function actingUserId(actor: Actor): number | null {
	return actor.type === 'user' || actor.type === 'apiKey' || actor.type === 'oauth'
		? actor.userId
		: null;
}

export async function memberRole(ctx: ServiceContext, userId: number | null): Promise<Role | null> {
	if (userId === null) return null;
	const row = await ctx.db.membership.findUnique({
		where: { workspaceId_userId: { workspaceId: ctx.workspace.id, userId } },
		select: { role: true }
	});
	return (row?.role as Role | undefined) ?? null;
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
