import { UNKNOWN } from './codec.ts';
import {
	createInputOf,
	notFound,
	numericId,
	orNull,
	planWith,
	stateOf,
	updateInputOf,
	type Managed,
	type Row
} from './resource.ts';
import { complete, listOf, obj, setOf, type Attr } from './schema.ts';

// upstate_notification (spec 2.11) and upstate_maintenance (spec 2.16, 4.1) over /rpc.
type Obj = Record<string, unknown>;

// ---- upstate_notification -----------------------------------------------------------------

// One nested attribute per provider, as the /rpc message has one block per provider: each
// field keeps its own type and its own sensitivity, which a single map(string) could not.
// The server checks the values and that exactly the block named by provider_type is set.
type Field = { name: string; required?: boolean; sensitive?: boolean; type?: Attr['type'] };
const url = (): Field => ({ name: 'webhook_url', required: true, sensitive: true });
const BLOCKS: Record<string, Field[]> = {
	discord: [url()],
	email: [{ name: 'email', required: true }],
	slack: [url()],
	pagerduty: [{ name: 'integration_key', required: true, sensitive: true }],
	opsgenie: [
		{ name: 'api_key', required: true, sensitive: true },
		{ name: 'region', required: true }
	],
	webhook: [
		{ name: 'endpoint', required: true },
		{
			name: 'headers',
			sensitive: true,
			type: listOf(obj({ key: 'string', value: 'string' }))
		}
	],
	telegram: [{ name: 'chat_id', required: true }],
	sms: [{ name: 'phone_number', required: true }],
	whatsapp: [{ name: 'phone_number', required: true }],
	google_chat: [url()],
	grafana_oncall: [url()],
	ntfy: [
		{ name: 'topic', required: true },
		{ name: 'server_url' },
		{ name: 'token', sensitive: true }
	],
	ms_teams: [url()]
};
const BLOCK_NAMES = Object.keys(BLOCKS);
const blockAttrs = (t: string): Attr[] =>
	BLOCKS[t].map((f) => ({
		name: f.name,
		type: f.type ?? 'string',
		required: !!f.required,
		optional: !f.required,
		sensitive: !!f.sensitive,
		description: f.sensitive ? 'Sensitive, write-only: never read back' : f.name
	}));

const CHANNEL = {
	attrs: [
		{ name: 'id', type: 'string', computed: true, description: 'The channel id' },
		{
			name: 'name',
			type: 'string',
			optional: true,
			computed: true,
			description: 'Up to 256 characters, default ""'
		},
		{
			name: 'provider_type',
			type: 'string',
			required: true,
			description: `${BLOCK_NAMES.join(', ')}; set the block of the same name (changing it replaces the channel)`
		},
		{
			name: 'monitor_ids',
			type: setOf('string'),
			optional: true,
			description: 'Monitors it alerts about. Owned by Terraform: left out, it is wired to none'
		},
		...BLOCK_NAMES.map((t): Attr => ({
			name: t,
			nested: { nesting: 'SINGLE', attributes: blockAttrs(t) },
			optional: true,
			description: `Settings for provider_type ${t}`
		})),
		{
			name: 'signing_secret',
			type: 'string',
			computed: true,
			sensitive: true,
			description:
				'webhook: the secret that signs each delivery, shown once at create and kept in state (null after import)'
		},
		{ name: 'created_at', type: 'string', computed: true, description: 'Creation time' }
	] satisfies Attr[],
	defaults: { name: () => '' },
	replaceOn: ['provider_type'],
	ids: ['monitor_ids'],
	keep: ['signing_secret']
};

// A block as the create input takes it: unset optional fields left out.
const clean = (b: Row) =>
	Object.fromEntries(Object.entries(b).filter(([, v]) => v !== null && v !== UNKNOWN));

// The server's channel as state: the block's plain fields from the server, its sensitive ones
// (never returned) from what Terraform holds, so they never show as drift. A block removed
// from configuration stays null: the server keeps a channel's settings (it needs them).
export function channelState(ch: Obj, shape: Row | null): Row {
	const out = stateOf(CHANNEL, ch, shape);
	for (const t of BLOCK_NAMES) {
		const got = ch[t] as Obj | undefined;
		if (!got || ch.provider_type !== t || (shape && shape[t] === null)) {
			out[t] = null;
			continue;
		}
		const held = (shape?.[t] ?? null) as Row | null;
		const block: Row = {};
		for (const f of BLOCKS[t])
			block[f.name] = f.sensitive
				? (held?.[f.name] ?? null)
				: got[f.name] == null
					? null
					: String(got[f.name]); // telegram's chat_id comes back as text
		out[t] = complete(blockAttrs(t), block);
	}
	const kept = shape?.signing_secret;
	out.signing_secret =
		(ch.signing_secret as string | undefined) ?? (kept === UNKNOWN ? null : (kept ?? null));
	return out;
}

const planChannel = planWith(CHANNEL);

export const NOTIFICATION: Managed = {
	noun: 'notification channel',
	schema: {
		description:
			'A notification channel: where alerts about its monitors go. Sensitive settings are write-only.',
		attributes: CHANNEL.attrs
	},
	plan(prior, config) {
		const { planned, replace } = planChannel(prior, config);
		for (const t of BLOCK_NAMES)
			if (planned[t] && typeof planned[t] === 'object')
				planned[t] = complete(blockAttrs(t), planned[t] as Row);
		return { planned, replace };
	},
	async read(api, state) {
		const ch = await orNull(
			api('notificationChannel.get', { notificationChannelId: Number(state.id) })
		);
		return ch && channelState(ch, state);
	},
	async create(api, planned) {
		const input = createInputOf(CHANNEL, planned, BLOCK_NAMES);
		for (const t of BLOCK_NAMES) if (planned[t]) input[t] = clean(planned[t] as Row);
		return channelState(await api('notificationChannel.create', input), planned);
	},
	async update(api, prior, planned) {
		const input = updateInputOf(CHANNEL, prior, planned, [...BLOCK_NAMES, 'provider_type']);
		// A changed block goes whole; a null optional field clears it (headers, server_url, token).
		for (const t of BLOCK_NAMES)
			if (planned[t] && JSON.stringify(planned[t]) !== JSON.stringify(prior[t]))
				input[t] = planned[t];
		const ch = await api('notificationChannel.update', {
			notificationChannelId: Number(prior.id),
			...input
		});
		return channelState(ch, planned);
	},
	async remove(api, prior) {
		await orNull(api('notificationChannel.remove', { notificationChannelId: Number(prior.id) }));
	},
	async importState(api, raw) {
		const n = numericId(
			raw,
			'notification channel',
			'`terraform import upstate_notification.ops 4`'
		);
		const ch = await orNull(api('notificationChannel.get', { notificationChannelId: n }));
		if (!ch) throw notFound('notification channel', raw, '`upstate notifications list` shows them');
		return channelState(ch, null);
	}
};

// ---- upstate_maintenance ------------------------------------------------------------------

const MAINTENANCE = {
	attrs: [
		{ name: 'id', type: 'string', computed: true, description: 'The maintenance window id' },
		{
			name: 'page_id',
			type: 'string',
			required: true,
			description: 'The status page it is shown on (changing it replaces it)'
		},
		{ name: 'title', type: 'string', required: true, description: '1-256 characters' },
		{
			name: 'message',
			type: 'string',
			optional: true,
			computed: true,
			description: 'Up to 5000 characters, default ""'
		},
		{
			name: 'from',
			type: 'string',
			required: true,
			description: 'Start, RFC 3339 with a zone, e.g. 2030-01-01T02:00:00Z'
		},
		{ name: 'to', type: 'string', required: true, description: 'End, after from (RFC 3339)' },
		{
			name: 'page_component_ids',
			type: setOf('string'),
			optional: true,
			description: 'Components of the page it affects; left out, none'
		},
		{
			name: 'notify',
			type: 'bool',
			required: true,
			description:
				"Notify the page's subscribers when the window is created. Only used at create: no default, and changing it later sends nothing"
		},
		{
			name: 'notified',
			type: 'bool',
			computed: true,
			description: 'The create dispatched notifications without an error'
		},
		{ name: 'created_at', type: 'string', computed: true, description: 'Creation time' }
	] satisfies Attr[],
	defaults: { message: () => '' },
	replaceOn: ['page_id'],
	ids: ['page_id', 'page_component_ids'],
	keep: ['notified']
};

// The router's maintenance fields are camelCase (pageId); Terraform's are snake_case.
const snake = (o: Obj) =>
	Object.fromEntries(
		Object.entries(o).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v])
	);
const camel = (o: Obj) =>
	Object.fromEntries(
		Object.entries(o).map(([k, v]) => [k.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()), v])
	);

// from/to as configured while they name the same instant (the server writes them in UTC);
// notify as configured (it only mattered at create), the server's on import.
export function maintenanceState(m: Obj, shape: Row | null): Row {
	const out = stateOf(MAINTENANCE, snake(m), shape);
	for (const k of ['from', 'to']) {
		const held = shape?.[k];
		if (typeof held === 'string' && Date.parse(held) === Date.parse(String(out[k]))) out[k] = held;
	}
	const notify = shape?.notify;
	if (typeof notify === 'boolean') out.notify = notify;
	return out;
}

export const MAINTENANCE_WINDOW: Managed = {
	noun: 'maintenance window',
	schema: {
		description: 'A maintenance window on a status page.',
		attributes: MAINTENANCE.attrs
	},
	plan: planWith(MAINTENANCE),
	async read(api, state) {
		const m = await orNull(api('maintenance.get', { maintenanceId: Number(state.id) }));
		return m && maintenanceState(m, state);
	},
	async create(api, planned) {
		const m = await api('maintenance.create', camel(createInputOf(MAINTENANCE, planned)));
		return maintenanceState(m, planned);
	},
	async update(api, prior, planned) {
		const m = await api('maintenance.update', {
			maintenanceId: Number(prior.id),
			...camel(updateInputOf(MAINTENANCE, prior, planned, ['page_id', 'notify']))
		});
		return maintenanceState(m, planned);
	},
	async remove(api, prior) {
		await orNull(api('maintenance.remove', { maintenanceId: Number(prior.id) }));
	},
	async importState(api, raw) {
		const n = numericId(raw, 'maintenance window', '`terraform import upstate_maintenance.db 9`');
		const m = await orNull(api('maintenance.get', { maintenanceId: n }));
		if (!m) throw notFound('maintenance window', raw, '`upstate maintenance list` shows them');
		return maintenanceState(m, null);
	}
};
