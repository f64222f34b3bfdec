import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { Prisma, StatusPage } from '@prisma/client';
import { ConflictError, ValidationError } from '../errors.ts';
import { requireFeature, type FeatureKey, type Limits } from '../limits.ts';
import { getInWorkspace, type InWorkspace, type Tx } from '../transaction.ts';
import type { StatusPageFields, StatusPageOutput } from './schemas.ts';
export { withDefaultLocale } from './schemas.ts';

export async function getStatusPageInWorkspace(args: InWorkspace): Promise<StatusPage> {
	return getInWorkspace('status page', args, (where) => args.tx.statusPage.findFirst({ where }));
}

export function toStatusPageOutput(row: StatusPage): StatusPageOutput {
	return {
		id: row.id,
		title: row.title,
		slug: row.slug,
		description: row.description,
		homepage_url: row.homepageUrl,
		contact_url: row.contactUrl,
		icon: row.icon,
		custom_domain: row.customDomain,
		access_type: row.accessType as StatusPageOutput['access_type'],
		has_password: row.passwordHash !== null,
		auth_email_domains: JSON.parse(row.authEmailDomains),
		allowed_ip_ranges: row.allowedIpRanges,
		theme: row.theme,
		custom_theme: JSON.parse(row.customTheme),
		default_locale: row.defaultLocale,
		locales: JSON.parse(row.locales),
		allow_index: row.allowIndex,
		published: row.published,
		created_at: row.createdAt.toISOString(),
		updated_at: row.updatedAt.toISOString()
	};
}

// scrypt with a per-page salt; the password itself is never stored or returned.
export function hashPassword(password: string): string {
	const salt = randomBytes(16);
	return `scrypt:${salt.toString('base64')}:${scryptSync(password, salt, 32).toString('base64')}`;
}

export function verifyPassword(password: string, stored: string): boolean {
	const [, salt, hash] = stored.split(':');
	const actual = scryptSync(password, Buffer.from(salt, 'base64'), 32);
	return timingSafeEqual(actual, Buffer.from(hash, 'base64'));
}

export function toStatusPageData(
	fields: StatusPageFields,
	passwordHash: string | null
): Omit<Prisma.StatusPageUncheckedCreateInput, 'workspaceId'> {
	return {
		title: fields.title,
		slug: fields.slug,
		description: fields.description,
		homepageUrl: fields.homepage_url,
		contactUrl: fields.contact_url,
		icon: fields.icon,
		customDomain: fields.custom_domain?.toLowerCase() ?? null,
		accessType: fields.access_type,
		passwordHash,
		authEmailDomains: JSON.stringify(fields.auth_email_domains),
		allowedIpRanges: fields.allowed_ip_ranges,
		theme: fields.theme,
		customTheme: JSON.stringify(fields.custom_theme),
		defaultLocale: fields.default_locale,
		locales: JSON.stringify(fields.locales),
		allowIndex: fields.allow_index
	};
}

/**
 * A custom domain must not be one of the service's own hosts (its configured addresses: status
 * site, dashboard, API): the status site resolves a page by Host, so that page would answer for
 * every page. Hosts compare without port and case.
 */
export function checkCustomDomain(fields: StatusPageFields, serviceUrls: string[]): void {
	const domain = fields.custom_domain?.toLowerCase();
	if (!domain) return;
	const own = serviceUrls.map((u) => URL.parse(u)?.hostname.toLowerCase());
	if (own.includes(domain)) {
		const message = `'${domain}' is this service's own address; use a domain of your own`;
		throw new ValidationError(`custom_domain: ${message}`, [{ path: 'custom_domain', message }]);
	}
}

// Rules across fields (spec 2.12), checked on the page as it will be saved.
export function checkStatusPage(fields: StatusPageFields, hasPassword: boolean): void {
	const need = (ok: boolean, path: string, message: string) => {
		if (!ok) throw new ValidationError(`${path}: ${message}`, [{ path, message }]);
	};
	need(
		fields.access_type !== 'password' || hasPassword,
		'password',
		"required when access_type is 'password'"
	);
	need(
		fields.access_type !== 'email-domain' || fields.auth_email_domains.length > 0,
		'auth_email_domains',
		"required when access_type is 'email-domain'"
	);
	need(
		fields.access_type !== 'ip-restriction' || fields.allowed_ip_ranges !== '',
		'allowed_ip_ranges',
		"required when access_type is 'ip-restriction'"
	);
}

// A saved page may hold locales from before they were checked.
type SavedFields = Omit<StatusPageFields, 'default_locale' | 'locales'> & {
	default_locale: string;
	locales: string[];
};

const ACCESS_FEATURES = {
	public: null,
	password: 'password-protection',
	'email-domain': 'email-domain-protection',
	'ip-restriction': 'ip-restriction'
} as const satisfies Record<StatusPageFields['access_type'], FeatureKey | null>;

const themeEntries = (theme: StatusPageFields['custom_theme']) =>
	(['light', 'dark'] as const).flatMap((mode) =>
		Object.entries(theme[mode]).map(([name, value]) => `${mode} ${name} ${value}`)
	);

/**
 * The plan features of spec 2.3 that `next` newly asks for. On update only a change towards a
 * gated value counts (`current` is the saved page), so after a downgrade a page keeps saving
 * unrelated fields and can always drop a feature; read-time fallbacks cover what it keeps.
 */
export function checkPlanFeatures(
	limits: Limits,
	next: StatusPageFields,
	current?: SavedFields
): void {
	const access = ACCESS_FEATURES[next.access_type];
	if (access && next.access_type !== current?.access_type) requireFeature(limits, access);
	const domain = next.custom_domain?.toLowerCase() ?? null;
	if (domain && domain !== current?.custom_domain?.toLowerCase())
		requireFeature(limits, 'custom-domain');
	const kept = new Set(current ? themeEntries(current.custom_theme) : []);
	if (themeEntries(next.custom_theme).some((entry) => !kept.has(entry)))
		requireFeature(limits, 'custom-theme');
	// Spec 2.3: no translations without i18n, whether a switcher or a non-English page.
	const knownLocales = new Set<string>(current?.locales ?? []);
	if (next.locales.length > 1 && next.locales.some((l) => !knownLocales.has(l)))
		requireFeature(limits, 'i18n');
	if (next.default_locale !== 'en' && next.default_locale !== current?.default_locale)
		requireFeature(limits, 'i18n');
	if (!next.allow_index && current?.allow_index !== false) requireFeature(limits, 'no-index');
}

export async function checkUnique(
	tx: Tx,
	fields: StatusPageFields,
	exceptId?: number
): Promise<void> {
	const clash = await tx.statusPage.findFirst({
		where: { slug: fields.slug, NOT: { id: exceptId ?? -1 } },
		select: { id: true }
	});
	if (clash) throw new ConflictError(`slug '${fields.slug}' is already taken`);
	if (fields.custom_domain) {
		const domain = fields.custom_domain.toLowerCase();
		const taken = await tx.statusPage.findFirst({
			where: { customDomain: domain, NOT: { id: exceptId ?? -1 } },
			select: { id: true }
		});
		if (taken) throw new ConflictError(`custom_domain '${domain}' is already used by another page`);
	}
}
