import { z } from 'zod';
import { optionalFields } from '../schema-helpers.ts';
import { PAGE_LOCALES } from './public/locales.ts';
import { isSafeCssVar, THEMES } from './public/theme.ts';
import { parseRange } from './public/client-address.ts';

// Status page fields of spec 2.12, with the spec's names. The password is write-only.
export const ACCESS_TYPES = ['public', 'password', 'email-domain', 'ip-restriction'] as const;
// The languages the status site ships: public/locales.ts (locales.test.ts keeps it equal to
// status/src/lib/i18n).
export type StatusLocale = (typeof PAGE_LOCALES)[number];
export const THEME_KEYS = Object.keys(THEMES);

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^(?:${LABEL}\\.)+${LABEL}$`);
// A custom domain also ends in a top-level domain of letters, so it is never an IP literal.
const HOST = new RegExp(`^(?:${LABEL}\\.)+[a-z]{2,63}$`, 'i');
// A rejected value is named in the message, shortened and quoted so it stays one plain line.
const shown = (v: unknown) => JSON.stringify(String(v).slice(0, 64));

// What a link on the public page may be: z.url() also accepts javascript: and data: URLs.
// http(s) needs a host; mailto needs an address.
const link = (schemes: string[], error: string) =>
	z
		.string()
		.trim()
		.max(2048)
		.refine(
			(v) => {
				const url = URL.parse(v);
				if (!url || !schemes.includes(url.protocol)) return false;
				return url.protocol === 'mailto:' ? /^[^@\s]+@[^@\s]+$/.test(url.pathname) : !!url.hostname;
			},
			{ error }
		)
		.describe(error);
const webLink = () => link(['http:', 'https:'], 'must be an http or https URL');

// Exactly the render check (theme.ts isSafeCssVar): a variable the page would drop is refused,
// named in the message since the dashboard shows messages without their paths.
const cssVars = z.record(z.string(), z.string()).superRefine((vars, ctx) => {
	for (const [name, value] of Object.entries(vars)) {
		let message: string | null = null;
		if (!name.startsWith('--')) message = `CSS variable names start with -- (got ${shown(name)})`;
		else if (!isSafeCssVar(name, '0'))
			message = `${shown(name)} is not a CSS variable name: -- then up to 64 letters, digits and dashes`;
		else if (!isSafeCssVar(name, value))
			message = `${name}: ${shown(value)} is not allowed: up to 128 letters, digits, spaces and # % . , ( ) / + -, no url() or comments`;
		if (message) ctx.addIssue({ code: 'custom', path: [name], message });
	}
});

const locale = z.enum(PAGE_LOCALES, {
	error: (iss) =>
		`${shown(iss.input)} is not a supported locale (one of ${PAGE_LOCALES.join(', ')})`
});

const fields = {
	title: z.string().min(1).max(256),
	slug: z
		.string()
		.min(1)
		.max(256)
		.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, {
			error: 'use lowercase letters, digits and single dashes'
		}),
	description: z.string().max(1024).default(''),
	homepage_url: webLink().nullable().default(null),
	contact_url: link(['http:', 'https:', 'mailto:'], 'must be an http, https or mailto URL')
		.nullable()
		.default(null),
	icon: webLink().nullable().default(null),
	// Labels as in DNS (no leading or trailing dash); the service's own hosts: checkCustomDomain.
	custom_domain: z
		.string()
		.max(253)
		.regex(HOST, { error: 'must be a host name such as status.example.com' })
		.describe(
			"A host name such as status.example.com, not one of the service's own; its DNS must point at the status site first (CNAME). Plan feature custom-domain."
		)
		.refine((v) => !/(^|\.)localhost$/i.test(v), { error: 'must be a public host name' })
		.nullable()
		.default(null),
	access_type: z.enum(ACCESS_TYPES).default('public'),
	password: z.string().min(1).max(256).optional(),
	auth_email_domains: z
		.array(
			z
				.string()
				.trim()
				.toLowerCase()
				.max(253)
				.refine((v) => DOMAIN.test(v), {
					error: (iss) => `${shown(iss.input)} is not a domain such as example.com`
				})
		)
		.max(50)
		.default([]),
	allowed_ip_ranges: z
		.string()
		.max(4096)
		.refine((v) => v === '' || v.split(',').every((r) => r.includes('/') && parseRange(r)), {
			error: 'must be comma-separated IPv4 or IPv6 CIDR ranges'
		})
		.default(''),
	theme: z
		.string()
		.refine((v) => Object.hasOwn(THEMES, v), {
			error: (iss) => `${shown(iss.input)} is not a theme (one of ${THEME_KEYS.join(', ')})`
		})
		.describe(`One of ${THEME_KEYS.join(', ')}`)
		.default('default'),
	custom_theme: z
		.object({ light: cssVars.default({}), dark: cssVars.default({}) })
		.default({ light: {}, dark: {} }),
	// A default missing from a non-empty `locales` is added to it (withDefaultLocale).
	default_locale: locale.default('en'),
	locales: z.array(locale).max(20).default([]),
	allow_index: z.boolean().default(true)
};

// Strict, like the update: a misspelt optional field (`customDomain`) is refused, not dropped.
export const CreateStatusPageInput = z.object(fields).strict();
export type CreateStatusPageInput = z.input<typeof CreateStatusPageInput>;
export type StatusPageFields = z.output<typeof CreateStatusPageInput>;

// The status site always offers the default locale: a non-empty `locales` gains it (first, where
// the reader's switcher shows it). Duplicates are dropped.
export function withDefaultLocale(fields: StatusPageFields): StatusPageFields {
	if (fields.locales.length === 0) return fields;
	return { ...fields, locales: [...new Set([fields.default_locale, ...fields.locales])] };
}

export const UpdateStatusPageInput = z
	.object({ pageId: z.number().int().positive() })
	.extend(optionalFields(fields))
	.strict();
export type UpdateStatusPageInput = z.input<typeof UpdateStatusPageInput>;

export const PageIdInput = z.object({ pageId: z.number().int().positive() });
export type PageIdInput = z.infer<typeof PageIdInput>;

export const ListStatusPagesInput = z.object({}).default({});
export type ListStatusPagesInput = z.input<typeof ListStatusPagesInput>;

export const StatusPageOutput = z.object({
	id: z.number(),
	title: z.string(),
	slug: z.string(),
	description: z.string(),
	homepage_url: z.string().nullable(),
	contact_url: z.string().nullable(),
	icon: z.string().nullable(),
	custom_domain: z.string().nullable(),
	access_type: z.enum(ACCESS_TYPES),
	has_password: z.boolean(),
	auth_email_domains: z.array(z.string()),
	allowed_ip_ranges: z.string(),
	theme: z.string(),
	custom_theme: z.object({
		light: z.record(z.string(), z.string()),
		dark: z.record(z.string(), z.string())
	}),
	default_locale: z.string(),
	locales: z.array(z.string()),
	allow_index: z.boolean(),
	published: z.boolean(),
	created_at: z.string(),
	updated_at: z.string()
});
export type StatusPageOutput = z.infer<typeof StatusPageOutput>;

export const StatusPageListOutput = z.object({ data: z.array(StatusPageOutput) });
export type StatusPageListOutput = z.infer<typeof StatusPageListOutput>;
