import { Lucia, type Adapter, type DatabaseSession, type DatabaseUser } from 'lucia';
import type { Db } from '../db/client.ts';

export const SESSION_COOKIE = 'upstate_session';

// lucia v3 over our Prisma Session/User models (the published Prisma adapter predates Prisma 6).
function prismaAdapter(db: Db): Adapter {
	const toSession = (s: {
		id: string;
		userId: number;
		expiresAt: Date;
		workspaceId: number | null;
	}): DatabaseSession => ({
		id: s.id,
		userId: s.userId,
		expiresAt: s.expiresAt,
		attributes: { workspaceId: s.workspaceId }
	});
	return {
		async getSessionAndUser(sessionId): Promise<[DatabaseSession | null, DatabaseUser | null]> {
			const row = await db.session.findUnique({
				where: { id: sessionId },
				include: { user: true }
			});
			if (!row) return [null, null];
			return [toSession(row), { id: row.user.id, attributes: { email: row.user.email } }];
		},
		async getUserSessions(userId) {
			return (await db.session.findMany({ where: { userId: Number(userId) } })).map(toSession);
		},
		async setSession(session) {
			await db.session.create({
				data: {
					id: session.id,
					userId: Number(session.userId),
					expiresAt: session.expiresAt,
					workspaceId: session.attributes.workspaceId
				}
			});
		},
		async updateSessionExpiration(sessionId, expiresAt) {
			await db.session.update({ where: { id: sessionId }, data: { expiresAt } });
		},
		async deleteSession(sessionId) {
			await db.session.deleteMany({ where: { id: sessionId } });
		},
		async deleteUserSessions(userId) {
			await db.session.deleteMany({ where: { userId: Number(userId) } });
		},
		async deleteExpiredSessions() {
			await db.session.deleteMany({ where: { expiresAt: { lte: new Date() } } });
		}
	};
}

export function createLucia(args: { db: Db; secure: boolean }) {
	return new Lucia(prismaAdapter(args.db), {
		sessionCookie: { name: SESSION_COOKIE, attributes: { secure: args.secure, sameSite: 'lax' } },
		getUserAttributes: (attributes) => ({ email: attributes.email }),
		getSessionAttributes: (attributes) => ({ workspaceId: attributes.workspaceId })
	});
}

export type AppLucia = ReturnType<typeof createLucia>;

declare module 'lucia' {
	interface Register {
		Lucia: AppLucia;
		UserId: number;
		DatabaseUserAttributes: { email: string };
		DatabaseSessionAttributes: { workspaceId: number | null };
	}
}
