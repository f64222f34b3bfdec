import { z } from 'zod';
import { LimitExceededError } from './errors.ts';
import { REGIONS } from './regions.ts';

export const PERIODICITIES = ['30s', '1m', '5m', '10m', '30m', '1h'] as const;
export type Periodicity = (typeof PERIODICITIES)[number];

const BOOLEAN_KEYS = [
	'multi-region',
	'private-locations',
	'screenshots',
	'response-logs',
	'otel',
	'maintenance',
	'monitor-values-visibility',
	'uptime-history',
	'status-subscribers',
	'custom-domain',
	'i18n',
	'password-protection',
	'email-domain-protection',
	'ip-restriction',
	'white-label',
	'no-index',
	'custom-theme',
	'notifications',
	'pagerduty',
	'opsgenie',
	'grafana-oncall',
	'whatsapp',
	'sms',
	'audit-log',
	'sso',
	'slack-agent'
] as const;
export type FeatureKey = (typeof BOOLEAN_KEYS)[number];

const COUNT_KEYS = [
	'monitors',
	'synthetic-checks',
	'max-regions',
	'status-pages',
	'page-components',
	'sms-limit',
	'notification-channels'
] as const;
export type CountKey = (typeof COUNT_KEYS)[number] | 'members';

export type Limits = {
	[K in FeatureKey]: boolean;
} & {
	[K in (typeof COUNT_KEYS)[number]]: number;
} & {
	members: number | 'Unlimited';
	periodicity: Periodicity[];
	'data-retention': string;
	regions: string[];
};

// Free plan (spec 2.3): a key missing from a workspace's `limits` falls back to this, never to
// unlimited. Private locations are on: self-hosted monitoring only runs through them (spec 1.3.1).
export const FREE_PLAN_LIMITS: Limits = {
	monitors: 1,
	'synthetic-checks': 30,
	periodicity: ['10m', '30m', '1h'],
	'multi-region': true,
	'max-regions': 6,
	'data-retention': '1 month',
	regions: ['ams', 'gru', 'iad', 'jnb', 'sin', 'syd'],
	'private-locations': true,
	screenshots: false,
	'response-logs': false,
	otel: false,
	maintenance: true,
	'monitor-values-visibility': true,
	'uptime-history': true,
	'status-subscribers': false,
	'custom-domain': false,
	i18n: false,
	'password-protection': false,
	'email-domain-protection': false,
	'ip-restriction': false,
	'white-label': false,
	'no-index': false,
	'custom-theme': false,
	notifications: true,
	pagerduty: false,
	opsgenie: false,
	'grafana-oncall': false,
	whatsapp: false,
	sms: false,
	'audit-log': false,
	sso: false,
	'slack-agent': false,
	'status-pages': 1,
	'page-components': 3,
	'sms-limit': 0,
	'notification-channels': 1,
	members: 1
};

// Self-hosted instances (SELF_HOST=true): a new workspace gets every key written out, every
// feature on, every frequency and region, and counts no one reaches; the instance admin can still
// set any workspace's limits (admin page of the dashboard).
export const SELF_HOST_PLAN = 'self-host';
const NO_CAP = 1_000_000;
export const SELF_HOST_LIMITS = {
	...Object.fromEntries(BOOLEAN_KEYS.map((k) => [k, true])),
	...Object.fromEntries(COUNT_KEYS.map((k) => [k, NO_CAP])),
	periodicity: [...PERIODICITIES],
	'data-retention': '12 months',
	regions: [...REGIONS],
	'max-regions': REGIONS.length,
	members: 'Unlimited'
} as Limits;

// What a new workspace starts on: the self-host plan or the free plan (spec 2.3), with the
// operator's WORKSPACE_DEFAULT_LIMITS on top.
export function newWorkspacePlan(args: { selfHost: boolean; overrides: Record<string, unknown> }): {
	plan: string;
	limits: Record<string, unknown>;
} {
	return args.selfHost
		? { plan: SELF_HOST_PLAN, limits: { ...SELF_HOST_LIMITS, ...args.overrides } }
		: { plan: 'free', limits: args.overrides };
}

export const LimitsOverride = z
	.object({
		...(Object.fromEntries(BOOLEAN_KEYS.map((k) => [k, z.boolean()])) as Record<
			FeatureKey,
			z.ZodBoolean
		>),
		...(Object.fromEntries(COUNT_KEYS.map((k) => [k, z.number().int().min(0)])) as Record<
			(typeof COUNT_KEYS)[number],
			z.ZodNumber
		>),
		members: z.union([z.number().int().min(0), z.literal('Unlimited')]),
		periodicity: z.array(z.enum(PERIODICITIES)),
		'data-retention': z.string().regex(/^\d+ months?$/),
		regions: z.array(z.string())
	})
	.partial();

// Unknown or malformed keys are ignored (the free default stays), so a bad edit of the JSON
// never unlocks anything.
export function resolveLimits(raw: string | null | undefined): Limits {
	let parsed: unknown;
	try {
		parsed = raw ? JSON.parse(raw) : {};
	} catch {
		parsed = {};
	}
	const entries = Object.entries(typeof parsed === 'object' && parsed ? parsed : {});
	const valid: Record<string, unknown> = {};
	for (const [key, value] of entries) {
		const field = LimitsOverride.shape[key as keyof typeof LimitsOverride.shape];
		if (field && field.safeParse(value).success) valid[key] = value;
	}
	return { ...FREE_PLAN_LIMITS, ...valid } as Limits;
}

export function requireFeature(limits: Limits, key: FeatureKey): void {
	if (!limits[key]) throw new LimitExceededError(key, false);
}

export function requireCount(limits: Limits, key: CountKey, current: number): void {
	const max = limits[key];
	if (max === 'Unlimited') return;
	if (current >= max) throw new LimitExceededError(key, max);
}
