import { z } from 'zod';
import { optionalFields } from '../schema-helpers.ts';

// Status page fields of spec 2.12, with the spec's names. The password is write-only.
export const ACCESS_TYPES = ['public', 'password', 'email-domain', 'ip-restriction'] as const;

const CIDR = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}\/(3[0-2]|[12]?\d)$/;
const cssVars = z.record(
	z.string().regex(/^--[\w-]+$/, { error: 'CSS variable names start with --' }),
	z.string().max(256)
);

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
	homepage_url: z.url().max(2048).nullable().default(null),
	contact_url: z.url().max(2048).nullable().default(null),
	icon: z.url().max(2048).nullable().default(null),
	custom_domain: z
		.string()
		.max(253)
		.regex(/^([a-z0-9-]+\.)+[a-z]{2,}$/i, {
			error: 'must be a host name such as status.example.com'
		})
		.nullable()
		.default(null),
	access_type: z.enum(ACCESS_TYPES).default('public'),
	password: z.string().min(1).max(256).optional(),
	auth_email_domains: z.array(z.string().min(1).max(253)).max(50).default([]),
	allowed_ip_ranges: z
		.string()
		.max(4096)
		.refine((v) => v === '' || v.split(',').every((r) => CIDR.test(r.trim())), {
			error: 'must be comma-separated IPv4 CIDR ranges'
		})
		.default(''),
	theme: z.string().max(64).default('default'),
	custom_theme: z
		.object({ light: cssVars.default({}), dark: cssVars.default({}) })
		.default({ light: {}, dark: {} }),
	default_locale: z.string().min(2).max(16).default('en'),
	locales: z.array(z.string().min(2).max(16)).max(20).default([]),
	allow_index: z.boolean().default(true)
};

export const CreateStatusPageInput = z.object(fields);
export type CreateStatusPageInput = z.input<typeof CreateStatusPageInput>;
export type StatusPageFields = z.output<typeof CreateStatusPageInput>;

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
