import { privateAddressOf, refusedTargetMessage } from '../../notify/ssrf.ts';
import { ValidationError } from '../errors.ts';
import type { ProviderType } from './providers.ts';

// The URL fields a provider posts to: the send refuses a private address in them (the SSRF
// guard, unless NOTIFY_ALLOW_PRIVATE_TARGETS), so saving one is refused by the same rule.
const TARGET_FIELDS: Partial<Record<ProviderType, string[]>> = {
	webhook: ['endpoint'],
	ntfy: ['server_url'],
	discord: ['webhook_url'],
	slack: ['webhook_url'],
	google_chat: ['webhook_url'],
	grafana_oncall: ['webhook_url'],
	ms_teams: ['webhook_url']
};

// Called before the write with the input's provider blocks (create and update alike).
export async function requirePublicTargets(
	input: Partial<Record<ProviderType, unknown>>,
	allowPrivateTargets: boolean
): Promise<void> {
	if (allowPrivateTargets) return;
	const issues: Array<{ path: string; message: string }> = [];
	for (const [type, fields] of Object.entries(TARGET_FIELDS)) {
		const block = input[type as ProviderType] as Record<string, unknown> | null | undefined;
		for (const field of fields) {
			const value = block?.[field];
			if (typeof value !== 'string' || !URL.canParse(value)) continue;
			const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
			const address = await privateAddressOf(host);
			if (address)
				issues.push({ path: `${type}.${field}`, message: refusedTargetMessage(host, address) });
		}
	}
	if (issues.length)
		throw new ValidationError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
}
