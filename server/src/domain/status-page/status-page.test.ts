import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import {
	createStatusPage,
	getStatusPage,
	listStatusPages,
	removeStatusPage,
	updateStatusPage,
	verifyPassword,
	type UpdateStatusPageInput
} from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

let n = 0;
const page = () => ({ title: 'Acme status', slug: `acme-${Date.now()}-${n++}` });
const PAID = {
	'status-pages': 10,
	'password-protection': true,
	'custom-domain': true,
	'custom-theme': true,
	'ip-restriction': true,
	'email-domain-protection': true,
	i18n: true,
	'no-index': true
};

describe('status page service', () => {
	it('creates with defaults, lists and gets; audits without any password material', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const ctx = ctxFor(db, ws);
		const p = await createStatusPage({
			ctx,
			input: { ...page(), access_type: 'password', password: 's3cret-pass' }
		});
		expect(p).toMatchObject({
			access_type: 'password',
			has_password: true,
			theme: 'default',
			allow_index: true,
			published: true
		});
		expect(p).not.toHaveProperty('password');
		const row = await db.statusPage.findUniqueOrThrow({ where: { id: p.id } });
		expect(row.passwordHash).not.toContain('s3cret-pass');
		expect(verifyPassword('s3cret-pass', row.passwordHash ?? '')).toBe(true);
		expect(verifyPassword('wrong', row.passwordHash ?? '')).toBe(false);
		expect((await listStatusPages({ ctx })).data.map((x) => x.id)).toEqual([p.id]);
		expect((await getStatusPage({ ctx, input: { pageId: p.id } })).slug).toBe(p.slug);
		const updated = await updateStatusPage({ ctx, input: { pageId: p.id, title: 'Renamed' } });
		expect(updated.has_password).toBe(true);
		const audit = await db.auditLog.findMany({
			where: { workspaceId: ws.id, entityType: 'status_page' },
			orderBy: { id: 'asc' }
		});
		expect(audit.map((a) => a.action)).toEqual(['status_page.create', 'status_page.update']);
		expect(JSON.stringify(audit)).not.toMatch(/s3cret|scrypt:/);
	});

	it('enforces bounds and cross-field rules with the field named', async () => {
		const ctx = ctxFor(db, await createWorkspace(db, { limits: PAID }));
		expect(await codeOf(createStatusPage({ ctx, input: { ...page(), title: '' } }))).toMatch(
			/^VALIDATION: title:/
		);
		expect(await codeOf(createStatusPage({ ctx, input: { ...page(), slug: 'Bad Slug' } }))).toMatch(
			/^VALIDATION: slug:/
		);
		expect(
			await codeOf(createStatusPage({ ctx, input: { ...page(), description: 'x'.repeat(1025) } }))
		).toMatch(/^VALIDATION: description:/);
		expect(
			await codeOf(createStatusPage({ ctx, input: { ...page(), access_type: 'password' } }))
		).toMatch(/^VALIDATION: password: required/);
		expect(
			await codeOf(createStatusPage({ ctx, input: { ...page(), access_type: 'email-domain' } }))
		).toMatch(/^VALIDATION: auth_email_domains/);
		expect(
			await codeOf(
				createStatusPage({
					ctx,
					input: { ...page(), access_type: 'ip-restriction', allowed_ip_ranges: '10.0.0.0/33' }
				})
			)
		).toMatch(/^VALIDATION: allowed_ip_ranges/);
		const v6 = await createStatusPage({
			ctx,
			input: {
				...page(),
				access_type: 'ip-restriction',
				allowed_ip_ranges: '10.0.0.0/8, 2001:db8::/32'
			}
		});
		expect(v6.allowed_ip_ranges).toBe('10.0.0.0/8, 2001:db8::/32');
		const taken = await createStatusPage({ ctx, input: page() });
		expect(await codeOf(createStatusPage({ ctx, input: { ...page(), slug: taken.slug } }))).toBe(
			`CONFLICT: slug '${taken.slug}' is already taken`
		);
	});

	it('accepts only the locales the status site ships, naming the bad value', async () => {
		const ctx = ctxFor(db, await createWorkspace(db, { limits: PAID }));
		expect(
			await codeOf(
				createStatusPage({
					ctx,
					input: { ...page(), default_locale: '"><script>alert(1)</script>' as never }
				})
			)
		).toBe(
			'VALIDATION: default_locale: "\\"><script>alert(1)</script>" is not a supported locale (one of en, de, fr, es, ja)'
		);
		expect(
			await codeOf(
				createStatusPage({ ctx, input: { ...page(), locales: ['en', 'de-AT' as never] } })
			)
		).toBe('VALIDATION: locales.1: "de-AT" is not a supported locale (one of en, de, fr, es, ja)');
		// A default missing from the switcher is added to it; an empty switcher stays empty.
		const p = await createStatusPage({
			ctx,
			input: { ...page(), default_locale: 'de', locales: ['en', 'fr', 'en'] }
		});
		expect(p.locales).toEqual(['de', 'en', 'fr']);
		const moved = await updateStatusPage({ ctx, input: { pageId: p.id, default_locale: 'ja' } });
		expect(moved).toMatchObject({ default_locale: 'ja', locales: ['ja', 'de', 'en', 'fr'] });
		const single = await createStatusPage({ ctx, input: { ...page(), default_locale: 'es' } });
		expect(single.locales).toEqual([]);
	});

	it('accepts http(s) links only, and mailto for the contact link', async () => {
		const ctx = ctxFor(db, await createWorkspace(db, { limits: PAID }));
		const refused: [string, string, string][] = [
			['homepage_url', 'javascript:alert(document.cookie)', 'must be an http or https URL'],
			['homepage_url', 'JavaScript:alert(1)', 'must be an http or https URL'],
			['homepage_url', 'data:text/html,<script>alert(1)</script>', 'must be an http or https URL'],
			['icon', 'javascript:alert(1)', 'must be an http or https URL'],
			['icon', 'data:image/svg+xml,<svg onload=alert(1)>', 'must be an http or https URL'],
			['icon', 'mailto:a@example.com', 'must be an http or https URL'],
			['contact_url', 'javascript:alert(1)', 'must be an http, https or mailto URL'],
			['contact_url', 'data:text/html,hi', 'must be an http, https or mailto URL'],
			['contact_url', 'mailto:', 'must be an http, https or mailto URL'],
			['contact_url', 'ftp://example.com', 'must be an http, https or mailto URL']
		];
		for (const [field, value, message] of refused)
			expect(
				await codeOf(createStatusPage({ ctx, input: { ...page(), [field]: value } })),
				value
			).toBe(`VALIDATION: ${field}: ${message}`);
		const p = await createStatusPage({
			ctx,
			input: {
				...page(),
				homepage_url: 'https://example.com/',
				icon: 'http://cdn.example.com/icon.png',
				contact_url: 'mailto:support@example.com'
			}
		});
		expect(p.contact_url).toBe('mailto:support@example.com');
		expect(
			await codeOf(updateStatusPage({ ctx, input: { pageId: p.id, homepage_url: 'javascript:x' } }))
		).toBe('VALIDATION: homepage_url: must be an http or https URL');
	});

	it("refuses the service's own hosts, IP literals and localhost as a custom domain", async () => {
		const ctx = ctxFor(db, await createWorkspace(db, { limits: PAID }));
		const serviceUrls = ['https://Status.Upstate.example:8443', 'https://app.upstate.example/'];
		for (const domain of ['status.upstate.example', 'APP.upstate.example'])
			expect(
				await codeOf(
					createStatusPage({ ctx, serviceUrls, input: { ...page(), custom_domain: domain } })
				)
			).toBe(
				`VALIDATION: custom_domain: '${domain.toLowerCase()}' is this service's own address; use a domain of your own`
			);
		const p = await createStatusPage({ ctx, serviceUrls, input: page() });
		expect(
			await codeOf(
				updateStatusPage({
					ctx,
					serviceUrls,
					input: { pageId: p.id, custom_domain: 'status.upstate.example' }
				})
			)
		).toMatch(/^VALIDATION: custom_domain: 'status.upstate.example' is this service's own/);
		for (const domain of ['127.0.0.1', '10.0.0.1', '[::1]', 'localhost', 'app.localhost'])
			expect(
				await codeOf(createStatusPage({ ctx, input: { ...page(), custom_domain: domain } })),
				domain
			).toMatch(/^VALIDATION: custom_domain: must be a (host name|public host name)/);
		const mine = await createStatusPage({
			ctx,
			serviceUrls,
			input: { ...page(), custom_domain: 'status.customer.example' }
		});
		expect(mine.custom_domain).toBe('status.customer.example');
	});

	it('accepts known themes and exactly the CSS variables the page renders', async () => {
		const ctx = ctxFor(db, await createWorkspace(db, { limits: PAID }));
		expect(await codeOf(createStatusPage({ ctx, input: { ...page(), theme: 'neon' } }))).toBe(
			'VALIDATION: theme: "neon" is not a theme (one of default, ocean, mono)'
		);
		expect(
			await codeOf(createStatusPage({ ctx, input: { ...page(), theme: 'constructor' } }))
		).toMatch(/^VALIDATION: theme:/);
		const theme = (light: Record<string, string>) => ({
			...page(),
			custom_theme: { light, dark: {} }
		});
		expect(await codeOf(createStatusPage({ ctx, input: theme({ primary: 'red' }) }))).toBe(
			'VALIDATION: custom_theme.light.primary: CSS variable names start with -- (got "primary")'
		);
		expect(await codeOf(createStatusPage({ ctx, input: theme({ '--a_b': 'red' }) }))).toMatch(
			/^VALIDATION: custom_theme\.light\.--a_b: "--a_b" is not a CSS variable name/
		);
		// Values theme.ts would drop at render time: each refused with the variable named.
		for (const value of [
			'url(https://evil.example/x.png)',
			'red; } body { display: none',
			'"quoted"',
			'expression(alert(1))',
			'red /* c */',
			'x'.repeat(129)
		])
			expect(
				await codeOf(createStatusPage({ ctx, input: theme({ '--primary': value }) })),
				value
			).toMatch(/^VALIDATION: custom_theme\.light\.--primary: --primary: ".*" is not allowed/);
		const ok = await createStatusPage({
			ctx,
			input: {
				...theme({ '--primary': 'oklch(0.5 0.14 230)', '--radius': '0.5rem' }),
				theme: 'ocean'
			}
		});
		expect(ok.theme).toBe('ocean');
	});

	it('accepts host names as e-mail domains, lower-cased, naming a bad entry', async () => {
		const ctx = ctxFor(db, await createWorkspace(db, { limits: PAID }));
		for (const bad of [
			'not a domain!!',
			'example',
			'-bad.example.com',
			'a..example.com',
			'@example.com'
		])
			expect(
				await codeOf(
					createStatusPage({
						ctx,
						input: { ...page(), auth_email_domains: ['example.com', bad] }
					})
				),
				bad
			).toBe(
				`VALIDATION: auth_email_domains.1: ${JSON.stringify(bad)} is not a domain such as example.com`
			);
		const p = await createStatusPage({
			ctx,
			input: {
				...page(),
				access_type: 'email-domain',
				auth_email_domains: [' Example.COM ', 'mail.example-2.org']
			}
		});
		expect(p.auth_email_domains).toEqual(['example.com', 'mail.example-2.org']);
	});

	it('gates plan features and counts, falling back to the free plan', async () => {
		const ctx = ctxFor(db, await createWorkspace(db, { plan: 'free', limits: {} }));
		expect(
			await codeOf(
				createStatusPage({ ctx, input: { ...page(), access_type: 'password', password: 'p' } })
			)
		).toMatch(/^LIMIT_EXCEEDED: .*'password-protection'/);
		expect(
			await codeOf(
				createStatusPage({ ctx, input: { ...page(), custom_domain: 'status.example.com' } })
			)
		).toMatch(/'custom-domain'/);
		expect(
			await codeOf(
				createStatusPage({
					ctx,
					input: { ...page(), custom_theme: { light: { '--primary': 'red' }, dark: {} } }
				})
			)
		).toMatch(/'custom-theme'/);
		expect(
			await codeOf(createStatusPage({ ctx, input: { ...page(), allow_index: false } }))
		).toMatch(/'no-index'/);
		// Spec 2.3: no translations without i18n, a switcher or a single non-English locale.
		expect(
			await codeOf(createStatusPage({ ctx, input: { ...page(), locales: ['en', 'ja'] } }))
		).toMatch(/'i18n'/);
		expect(
			await codeOf(createStatusPage({ ctx, input: { ...page(), default_locale: 'ja' } }))
		).toMatch(/^LIMIT_EXCEEDED: .*'i18n'/);
		await createStatusPage({ ctx, input: page() });
		expect(await codeOf(createStatusPage({ ctx, input: page() }))).toMatch(
			/^LIMIT_EXCEEDED: limit 'status-pages'/
		);
	});

	it('after a plan downgrade still saves other fields and turning features off', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const gated = {
			custom_domain: `${page().slug}.example.com`,
			access_type: 'ip-restriction',
			allowed_ip_ranges: '10.0.0.0/8',
			custom_theme: { light: { '--primary': 'red', '--radius': '0' }, dark: {} },
			default_locale: 'ja',
			locales: ['ja', 'en', 'fr'],
			allow_index: false
		} satisfies Omit<UpdateStatusPageInput, 'pageId'>;
		const p = await createStatusPage({ ctx: ctxFor(db, ws), input: { ...page(), ...gated } });
		await db.workspace.update({ where: { id: ws.id }, data: { plan: 'free', limits: '{}' } });
		const ctx = ctxFor(db, await db.workspace.findUniqueOrThrow({ where: { id: ws.id } }));
		const update = (input: Omit<UpdateStatusPageInput, 'pageId'>) =>
			updateStatusPage({ ctx, input: { pageId: p.id, ...input } });

		// Unrelated fields, alone or re-sent with every unchanged gated value (the dashboard form).
		expect((await update({ title: 'Renamed' })).title).toBe('Renamed');
		expect((await update({ ...gated, description: 'Still here' })).description).toBe('Still here');
		// Moving towards a gated value, or to another gated value, needs the feature.
		const rejected: [Omit<UpdateStatusPageInput, 'pageId'>, string][] = [
			[{ custom_domain: `${page().slug}.example.com` }, 'custom-domain'],
			[
				{ access_type: 'email-domain', auth_email_domains: ['example.com'] },
				'email-domain-protection'
			],
			[{ access_type: 'password', password: 'p' }, 'password-protection'],
			[{ custom_theme: { light: { '--primary': 'blue' }, dark: {} } }, 'custom-theme'],
			[{ default_locale: 'de' }, 'i18n'],
			[{ locales: ['ja', 'en', 'de'] }, 'i18n']
		];
		for (const [input, feature] of rejected)
			expect(await codeOf(update(input)), feature).toBe(
				`LIMIT_EXCEEDED: your plan does not include '${feature}'`
			);
		// Turning features off or trimming them is always allowed.
		const off = await update({
			custom_domain: null,
			access_type: 'public',
			custom_theme: { light: { '--primary': 'red' }, dark: {} },
			locales: ['ja', 'en'],
			default_locale: 'en',
			allow_index: true
		});
		expect(off).toMatchObject({ custom_domain: null, access_type: 'public', allow_index: true });
		expect(await codeOf(update({ allow_index: false }))).toBe(
			"LIMIT_EXCEEDED: your plan does not include 'no-index'"
		);
		expect(await codeOf(update({ access_type: 'ip-restriction' }))).toBe(
			"LIMIT_EXCEEDED: your plan does not include 'ip-restriction'"
		);
		expect(await codeOf(update({ default_locale: 'ja' }))).toMatch(/'i18n'/);
	});

	it('rejects read-only key', async () => {
		const ws = await createWorkspace(db);
		expect(
			await codeOf(createStatusPage({ ctx: ctxFor(db, ws, readKey()), input: page() }))
		).toMatch(/^FORBIDDEN/);
		expect(await db.statusPage.count({ where: { workspaceId: ws.id } })).toBe(0);
	});

	it("returns NOT_FOUND for another workspace's id", async () => {
		const theirs = await createStatusPage({
			ctx: ctxFor(db, await createWorkspace(db)),
			input: page()
		});
		const mine = ctxFor(db, await createWorkspace(db));
		expect(await codeOf(getStatusPage({ ctx: mine, input: { pageId: theirs.id } }))).toBe(
			`NOT_FOUND: status page ${theirs.id} not found`
		);
		expect(
			await codeOf(updateStatusPage({ ctx: mine, input: { pageId: theirs.id, title: 'x' } }))
		).toMatch(/^NOT_FOUND/);
		expect(await codeOf(removeStatusPage({ ctx: mine, input: { pageId: theirs.id } }))).toMatch(
			/^NOT_FOUND/
		);
	});

	it('leaves nothing behind on invalid input', async () => {
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws);
		const p = await createStatusPage({ ctx, input: page() });
		expect(
			await codeOf(
				updateStatusPage({ ctx, input: { pageId: p.id, title: 'ok', homepage_url: 'not a url' } })
			)
		).toMatch(/^VALIDATION: homepage_url/);
		expect((await getStatusPage({ ctx, input: { pageId: p.id } })).title).toBe('Acme status');
		expect(await db.auditLog.count({ where: { workspaceId: ws.id } })).toBe(1);
	});
});
