import { loadConfig, type Config } from './config.ts';
import { createDb, type Db } from './db/client.ts';
import { createMailer, type Mailer } from './mail/index.ts';
import { createLucia, type AppLucia } from './auth/lucia.ts';
import { SignInProviders } from './auth/providers.ts';
import type { SubscriberNotifier } from './notify/index.ts';
import { createSubscriberNotifier } from './domain/subscriber/index.ts';
import { createAnalyticsStore } from './analytics/create.ts';
import type { AnalyticsStore } from './analytics/index.ts';
import { createOpenedPages, type OpenedPage } from './domain/status-page/public/open-page.ts';
import type { RenderCache } from './domain/status-page/public/render-cache.ts';
import { SubscribeBudget } from './domain/subscriber/send-budget.ts';
import { createChatBudget, type ChatBudget } from './assistant/budget.ts';

// The process-wide services every surface shares. In the all-in-one process main.ts and the
// SvelteKit apps (which import this package at run time, not bundled) get the same instance.
export type Upstate = {
	config: Config;
	db: Db;
	mailer: Mailer;
	lucia: AppLucia;
	signInProviders: SignInProviders; // OAuth / OpenID Connect sign-in (AUTH_<PROVIDER>_*)
	analytics: AnalyticsStore;
	notify: SubscriberNotifier; // subscriber notifications after publishing: writes the outbox
	openedPages: RenderCache<OpenedPage>; // published pages by slug/domain for the access gate
	subscribeBudget: SubscribeBudget; // confirmation mail per client and address (subscriber/)
	chatBudget: ChatBudget; // assistant messages per workspace (assistant/budget.ts)
};

export function createUpstate(config: Config = loadConfig()): Upstate {
	const db = createDb({ url: config.databaseUrl, authToken: config.databaseAuthToken });
	return {
		config,
		db,
		mailer: createMailer(config.mail, db),
		// Secure cookies whenever the dashboard is served over https.
		lucia: createLucia({ db, secure: config.urls.dashboard.startsWith('https:') }),
		signInProviders: new SignInProviders({
			providers: config.authProviders,
			dashboardUrl: config.urls.dashboard
		}),
		analytics: createAnalyticsStore(config.analytics),
		notify: createSubscriberNotifier({ db, statusPageUrl: config.urls.statusPage }),
		openedPages: createOpenedPages(config.statusPageCacheTtlMs),
		subscribeBudget: new SubscribeBudget(),
		chatBudget: createChatBudget(config.chatBudget)
	};
}

let instance: Upstate | undefined;

export function getUpstate(): Upstate {
	instance ??= createUpstate();
	return instance;
}

export function setUpstate(upstate: Upstate): void {
	instance = upstate;
}
