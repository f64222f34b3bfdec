import { randomUUID } from 'node:crypto';
import { createCaller, toServiceError } from '@upstate/server';
import { describe, expect, it } from 'vitest';
import { createTestDb } from '../../../../server/test/db.ts';
import { createWorkspace, ctxFor, TEAM_LIMITS } from '../../../../server/test/factories.ts';
import { createTestUpstate } from '../../../../server/test/upstate.ts';
import { list, statusPageUpdate, statusPageValues } from './status-page-form.ts';

const PAID = { ...TEAM_LIMITS, 'custom-domain': true, 'email-domain-protection': true, i18n: true };

async function setup() {
	const { db } = await createTestDb();
	const ws = await createWorkspace(db, { limits: PAID });
	const api = createCaller({
		upstate: createTestUpstate(db, {
			STATUS_PAGE_URL: 'https://status.upstate.example',
			NEXT_PUBLIC_URL: 'https://app.upstate.example:8443',
			OAUTH_ISSUER: 'https://api.upstate.example',
			// No DNS here; the check that a domain points here is tested in the server.
			CUSTOM_DOMAIN_SKIP_DNS_CHECK: 'true'
		}),
		db,
		requestId: randomUUID(),
		user: null,
		sessionId: null,
		service: ctxFor(db, ws)
	});
	const page = await api.statusPage.create({ title: 'Acme', slug: `acme-${ws.id}` });
	return { api, page };
}

// "CODE: message" as the dashboard's actionError sees a failed call.
async function codeOf(p: Promise<unknown>): Promise<string> {
	const e = toServiceError(
		await p.then(
			() => expect.fail('expected a failure'),
			(err) => err
		)
	);
	return `${e.code}: ${e.message}`;
}

function sent(fields: Record<string, string | string[]>): FormData {
	const form = new FormData();
	for (const [k, v] of Object.entries(fields))
		for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
	return form;
}

describe('page settings form', () => {
	it('splits lists on commas and new lines only', () => {
		expect(list('example.com, example.org\nexample.net\r\n,')).toEqual([
			'example.com',
			'example.org',
			'example.net'
		]);
		expect(list('not a domain!!')).toEqual(['not a domain!!']);
		expect(list('10.0.0.0/8, 192.168.1.0/24')).toEqual(['10.0.0.0/8', '192.168.1.0/24']);
	});

	it('saves through the in-process caller: locale checkboxes, e-mail domains, own hosts refused', async () => {
		const { api, page } = await setup();
		const base = {
			title: 'Acme',
			slug: page.slug,
			access_type: 'email-domain',
			allow_index: 'on',
			auth_email_domains: 'acme.test'
		};
		const save = (fields: Record<string, string | string[]>) =>
			api.statusPage.update(statusPageUpdate(page.id, statusPageValues(sent(fields))));

		expect(await codeOf(save({ ...base, auth_email_domains: 'acme.test, not a domain!!' }))).toBe(
			'VALIDATION: auth_email_domains.1: "not a domain!!" is not a domain such as example.com'
		);
		const saved = await save({
			...base,
			auth_email_domains: 'Acme.test\nmail.acme.test',
			default_locale: 'fr',
			locales: ['en', 'de'],
			allowed_ip_ranges: '10.0.0.0/8, 192.168.1.0/24'
		});
		expect(saved).toMatchObject({
			auth_email_domains: ['acme.test', 'mail.acme.test'],
			default_locale: 'fr',
			locales: ['fr', 'en', 'de'],
			allowed_ip_ranges: '10.0.0.0/8,192.168.1.0/24'
		});
		// The router hands the verbs the configured addresses (port and case do not matter).
		for (const host of ['status.upstate.example', 'App.Upstate.Example', 'api.upstate.example'])
			expect(await codeOf(save({ ...base, custom_domain: host })), host).toMatch(
				/^VALIDATION: custom_domain: '[\w.]+' is this service's own address/
			);
		expect(
			await codeOf(
				api.statusPage.create({ title: 'x', slug: 'x', custom_domain: 'status.upstate.example' })
			)
		).toMatch(/^VALIDATION: custom_domain:/);
		expect((await save({ ...base, custom_domain: 'status.acme.test' })).custom_domain).toBe(
			'status.acme.test'
		);
	});
});
