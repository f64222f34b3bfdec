import { describe, expect, it } from 'vitest';
import { UNKNOWN } from '../src/codec.ts';
import { channelState, maintenanceState, NOTIFICATION } from '../src/notifications.ts';

// The state rules of upstate_notification and upstate_maintenance, without a server: what the
// server returns (secrets as hints only) against what Terraform holds.
const served = {
	id: 4,
	name: 'ops',
	provider_type: 'webhook',
	monitor_ids: [2],
	monitors: [{ id: 2, name: 'svc' }],
	webhook: { endpoint: 'https://hooks.example.com/a' },
	secret_hints: { headers: 'authorization' },
	created_at: 'then',
	updated_at: 'now'
};
const headers = [{ key: 'authorization', value: 'Bearer s3cret' }];
const cfg = (over: Record<string, unknown>) =>
	Object.fromEntries(
		NOTIFICATION.schema.attributes.map((a) => [a.name, (over[a.name] ?? null) as never])
	);

describe('upstate_notification state', () => {
	it('keeps sensitive fields and the signing secret from state, reads plain fields from the server', () => {
		const held = {
			...cfg({ name: 'ops', provider_type: 'webhook', monitor_ids: ['2'] }),
			webhook: { endpoint: 'https://hooks.example.com/a', headers },
			id: '4',
			signing_secret: 'whsec_x',
			created_at: 'then'
		};
		const s = channelState({ ...served, webhook: { endpoint: 'https://elsewhere.example' } }, held);
		expect(s).toMatchObject({
			id: '4',
			monitor_ids: ['2'],
			webhook: { endpoint: 'https://elsewhere.example', headers },
			signing_secret: 'whsec_x',
			email: null,
			ntfy: null
		});
		// The create's response carries the signing secret once; a planned unknown becomes it.
		expect(
			channelState({ ...served, signing_secret: 'whsec_new' }, { ...held, signing_secret: UNKNOWN })
				.signing_secret
		).toBe('whsec_new');
	});

	it('on import the secrets are unknown to state (null); a removed block stays null', () => {
		expect(channelState(served, null)).toMatchObject({
			webhook: { endpoint: 'https://hooks.example.com/a', headers: null },
			signing_secret: null,
			monitor_ids: ['2']
		});
		expect(
			channelState(served, { ...cfg({ provider_type: 'webhook' }), webhook: null }).webhook
		).toBeNull();
	});

	it('a new provider_type replaces the channel; a new name updates it in place', () => {
		const prior = channelState(served, null);
		const same = { ...prior, signing_secret: null };
		expect(NOTIFICATION.plan(prior, { ...same, provider_type: 'email' }).replace).toEqual([
			'provider_type'
		]);
		const renamed = NOTIFICATION.plan(prior, { ...same, name: 'ops-eu' });
		expect(renamed.replace).toEqual([]);
		expect(renamed.planned).toMatchObject({ id: '4', name: 'ops-eu', signing_secret: null });
	});
});

describe('upstate_maintenance state', () => {
	const m = {
		id: 9,
		pageId: 3,
		title: 'Upgrade',
		message: '',
		from: '2030-01-01T02:00:00.000Z',
		to: '2030-01-01T04:00:00.000Z',
		pageComponentIds: [5],
		notify: true,
		notified: true,
		createdAt: 'then',
		updatedAt: 'now'
	};
	it('keeps the configured spelling of the same instant, shows a moved one, keeps notify as configured', () => {
		const held = {
			id: '9',
			page_id: '3',
			title: 'Upgrade',
			message: '',
			from: '2030-01-01T02:00:00Z',
			to: '2030-01-01T06:00:00+02:00',
			page_component_ids: ['5'],
			notify: false,
			notified: true,
			created_at: 'then'
		};
		expect(maintenanceState(m, held)).toEqual(held);
		expect(maintenanceState({ ...m, to: '2030-01-01T05:00:00.000Z' }, held).to).toBe(
			'2030-01-01T05:00:00.000Z'
		);
		expect(maintenanceState(m, null)).toMatchObject({ page_id: '3', notify: true, from: m.from });
	});
});
