import type { Upstate } from '../app.ts';
import type { Mailer } from '../mail/index.ts';
import type { NotifyConfig } from './types.ts';
import { createVault, type Vault } from './vault.ts';

export { sendToChannel } from './send.ts';
export { createVault, type Vault } from './vault.ts';
export { signatureOf, verifyWebhookSignature } from './providers/webhook.ts';
export { sendRequest } from './http.ts';
export type * from './types.ts';

export type Notifier = {
	vault: Vault;
	config: NotifyConfig;
	mailer: Mailer;
	dashboardUrl: string;
	statusPageUrl: string; // base of subscriber links
	linkSecret: string; // AUTH_SECRET: signs subscriber unsubscribe links
};

const cache = new WeakMap<Upstate, Notifier>();

// Built from the process services once per Upstate (the vault derives its key from AUTH_SECRET).
export function notifierFor(upstate: Upstate): Notifier {
	let notifier = cache.get(upstate);
	if (!notifier) {
		notifier = {
			vault: createVault(upstate.config.authSecret),
			config: upstate.config.notify,
			mailer: upstate.mailer,
			dashboardUrl: upstate.config.urls.dashboard,
			statusPageUrl: upstate.config.urls.statusPage,
			linkSecret: upstate.config.authSecret
		};
		cache.set(upstate, notifier);
	}
	return notifier;
}
export {
	createNoopNotifier,
	type MaintenanceEvent,
	type StatusReportEvent,
	type SubscriberNotifier
} from './subscribers.ts';
