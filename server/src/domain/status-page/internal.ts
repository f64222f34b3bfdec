import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { Prisma, StatusPage } from '@prisma/client';
import { ConflictError, NotFoundError, ValidationError } from '../errors.ts';
import { requireFeature, type Limits } from '../limits.ts';
import type { Tx } from '../transaction.ts';
import type { StatusPageFields, StatusPageOutput } from './schemas.ts';

export async function getStatusPageInWorkspace(args: {
	tx: Tx;
	id: number;
	workspaceId: number;
}): Promise<StatusPage> {
	const row = await args.tx.statusPage.findFirst({
		where: { id: args.id, workspaceId: args.workspaceId }
	});
	if (!row) throw new NotFoundError('status page', args.id);
	return row;
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

// Rules across fields (spec 2.12) and the plan features of spec 2.3.
export function checkStatusPage(
	limits: Limits,
	fields: StatusPageFields,
	hasPassword: boolean
): void {
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
	if (fields.access_type === 'password') requireFeature(limits, 'password-protection');
	if (fields.access_type === 'email-domain') requireFeature(limits, 'email-domain-protection');
	if (fields.access_type === 'ip-restriction') requireFeature(limits, 'ip-restriction');
	if (fields.custom_domain) requireFeature(limits, 'custom-domain');
	if (
		Object.keys(fields.custom_theme.light).length + Object.keys(fields.custom_theme.dark).length >
		0
	)
		requireFeature(limits, 'custom-theme');
	if (fields.locales.length > 1) requireFeature(limits, 'i18n');
	if (!fields.allow_index) requireFeature(limits, 'no-index');
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
