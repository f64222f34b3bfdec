import { mkdtempSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createApiListener } from '../src/api.ts';
import type { Upstate } from '../src/app.ts';
import { createAnalyticsStore } from '../src/analytics/create.ts';
import { createLucia } from '../src/auth/lucia.ts';
import { SignInProviders } from '../src/auth/providers.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/client.ts';
import { createApiKey } from '../src/domain/api-key/index.ts';
import { createOpenedPages, type PublicDeps } from '../src/domain/status-page/public/open-page.ts';
import { SubscribeBudget } from '../src/domain/subscriber/send-budget.ts';
import { createChatBudget } from '../src/assistant/budget.ts';
import { createMailer } from '../src/mail/index.ts';
import { createNoopNotifier } from '../src/notify/index.ts';
import { createUser, ctxFor } from './factories.ts';

// A real Upstate (config, mailer, lucia) on a test database; mail goes to `smtpUrl` or the log.
export function createTestUpstate(db: Db, env: Record<string, string> = {}): Upstate {
	const config = loadConfig({
		DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'upstate-test-')),
		...env
	});
	return {
		config,
		db,
		mailer: createMailer(config.mail),
		lucia: createLucia({ db, secure: false }),
		signInProviders: new SignInProviders({
			providers: config.authProviders,
			dashboardUrl: config.urls.dashboard
		}),
		analytics: createAnalyticsStore(config.analytics),
		notify: createNoopNotifier(),
		openedPages: createOpenedPages(config.statusPageCacheTtlMs),
		subscribeBudget: new SubscribeBudget(),
		chatBudget: createChatBudget(config.chatBudget)
	};
}

// What the status site's public verbs get, from a test Upstate, with no render memo: every
// call reads. `statusPageUrl` is the base of mailed links.
export const publicDeps = (upstate: Upstate, extra: Partial<PublicDeps> = {}): PublicDeps => ({
	db: upstate.db,
	analytics: upstate.analytics,
	mailer: upstate.mailer,
	secret: 'test-secret',
	trustedProxyHops: 0,
	statusPageUrl: 'http://status.test',
	...extra
});

// The API server on 127.0.0.1 and a random port, over real HTTP (1.1, and h2c for /rpc).
export async function startApi(
	upstate: Upstate
): Promise<{ url: string; close: () => Promise<void> }> {
	const server = createApiListener({ upstate });
	const sockets = new Set<Socket>();
	server.on('connection', (socket: Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	upstate.config.urls.api = `http://127.0.0.1:${port}`;
	return {
		url: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise((r) => {
				server.close(() => r());
				// Kept-alive HTTP/1.1 and HTTP/2 client connections would hold the port open.
				for (const socket of sockets) socket.destroy();
			})
	};
}

// A key issued by the workspace's owner (created on first use), as the dashboard issues them:
// keys act with their creator's role.
export async function issueKey(
	db: Db,
	workspace: { id: number; plan: string; limits: string },
	scope: 'read' | 'write'
): Promise<string> {
	const owner =
		(await db.membership.findFirst({ where: { workspaceId: workspace.id, role: 'owner' } })) ??
		(await db.membership.create({
			data: { workspaceId: workspace.id, userId: (await createUser(db)).id, role: 'owner' }
		}));
	const actor = { type: 'user' as const, userId: owner.userId, role: 'owner' as const };
	return (
		await createApiKey({
			ctx: ctxFor(db, workspace, actor),
			input: { name: `${scope} key`, scope }
		})
	).key;
}

// One place for the REST error envelope, so it cannot drift per endpoint (STYLE 45).
export const errorBody = {
	notFound: (message: string) => ({ error: { code: 'NOT_FOUND', message } }),
	unauthorized: (message: string) => ({ error: { code: 'UNAUTHORIZED', message } }),
	forbidden: (message: string) => ({ error: { code: 'FORBIDDEN', message } }),
	conflict: (message: string) => ({ error: { code: 'CONFLICT', message } }),
	limitExceeded: (message: string) => ({ error: { code: 'LIMIT_EXCEEDED', message } }),
	validation: (path: string, message: string) => ({
		error: {
			code: 'VALIDATION',
			message: path ? `${path}: ${message}` : message,
			issues: [{ path, message }]
		}
	})
};
