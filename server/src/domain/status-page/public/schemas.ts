import { z } from 'zod';
import { IMPACTS } from './component-state.ts';

// The status site's public read side. Inputs carry the request facts the access gate needs;
// outputs carry only what a reader may see (no workspace, no secrets).
export const PageLocator = z.union([
	z.object({ slug: z.string().min(1).max(256) }),
	z.object({ domain: z.string().min(1).max(253) })
]);
export type PageLocator = z.infer<typeof PageLocator>;

// What the transport knows about the reader: the socket peer, the raw X-Forwarded-For header
// and the pass cookies it sent (`upstate_page_*` values). The verb decides what to trust.
export const ReaderFacts = z.object({
	socketAddress: z.string().max(100),
	forwardedFor: z.string().max(4096).nullable().default(null),
	grants: z.array(z.string().max(512)).max(20).default([])
});
export type ReaderFacts = z.input<typeof ReaderFacts>;

export const ACCESS_DECISIONS = ['granted', 'password', 'email-domain', 'ip-denied'] as const;
export type AccessDecision = (typeof ACCESS_DECISIONS)[number];

const STATES = [...IMPACTS, 'under_maintenance', 'unknown'] as const;

export const PublicHead = z.object({
	id: z.number(),
	title: z.string(),
	slug: z.string(),
	icon: z.string().nullable(),
	base: z.string(), // path prefix of the page's links: `/<slug>`, or '' on its custom domain
	public: z.boolean(), // access_type is public: other origins and shared caches may read its views
	allow_index: z.boolean(),
	default_locale: z.string(),
	locales: z.array(z.string()),
	theme: z.object({
		light: z.record(z.string(), z.string()),
		dark: z.record(z.string(), z.string())
	}),
	white_label: z.boolean(),
	subscribe: z.boolean() // the plan has `status-subscribers`: the subscribe form is shown
});
export type PublicHead = z.infer<typeof PublicHead>;

export const UptimeDayOutput = z.object({
	day: z.string(),
	uptime: z.number().nullable(),
	checks: z.number(),
	failed: z.number(),
	color: z.enum(['operational', 'degraded', 'partial', 'major', 'maintenance', 'empty']),
	reports: z.array(z.object({ id: z.number(), title: z.string() })),
	maintenances: z.array(z.object({ id: z.number(), title: z.string() }))
});

export const PublicComponent = z.object({
	id: z.number(),
	name: z.string(),
	description: z.string(),
	type: z.enum(['monitor', 'static']),
	state: z.enum(STATES),
	uptime: z.array(UptimeDayOutput).nullable() // monitor components only
});
export type PublicComponent = z.infer<typeof PublicComponent>;

export const PublicSection = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('component'), component: PublicComponent }),
	z.object({
		kind: z.literal('group'),
		id: z.number(),
		name: z.string(),
		state: z.enum(STATES),
		components: z.array(PublicComponent)
	})
]);
export type PublicSection = z.infer<typeof PublicSection>;

export const PublicReport = z.object({
	id: z.number(),
	title: z.string(),
	status: z.string(),
	created_at: z.string(),
	resolved_at: z.string().nullable(),
	components: z.array(z.string()),
	// Newest first.
	updates: z.array(
		z.object({ id: z.number(), status: z.string(), message: z.string(), date: z.string() })
	)
});
export type PublicReport = z.infer<typeof PublicReport>;

export const PublicMaintenance = z.object({
	id: z.number(),
	title: z.string(),
	message: z.string(),
	from: z.string(),
	to: z.string(),
	in_progress: z.boolean(),
	components: z.array(z.string())
});
export type PublicMaintenance = z.infer<typeof PublicMaintenance>;

export const PublicPageBody = z.object({
	description: z.string(),
	homepage_url: z.string().nullable(),
	contact_url: z.string().nullable(),
	banner: z.enum(['operational', ...IMPACTS.slice(1), 'under_maintenance']),
	sections: z.array(PublicSection),
	active_reports: z.array(PublicReport),
	maintenances: z.array(PublicMaintenance) // in progress and upcoming, soonest first
});
export type PublicPageBody = z.infer<typeof PublicPageBody>;

export const GetPublicPageInput = z.object({ page: PageLocator, reader: ReaderFacts });
export type GetPublicPageInput = z.input<typeof GetPublicPageInput>;

export const PublicPageOutput = z.object({
	access: z.enum(ACCESS_DECISIONS),
	head: PublicHead,
	page: PublicPageBody.nullable() // null unless access is granted
});
export type PublicPageOutput = z.infer<typeof PublicPageOutput>;

export const GetPublicReportInput = GetPublicPageInput.extend({
	reportId: z.number().int().positive()
});
export type GetPublicReportInput = z.input<typeof GetPublicReportInput>;

export const PublicReportOutput = z.object({
	access: z.enum(ACCESS_DECISIONS),
	head: PublicHead,
	report: PublicReport.nullable()
});
export type PublicReportOutput = z.infer<typeof PublicReportOutput>;

// `month` (YYYY-MM, UTC) starts the listing at that month instead of the newest one.
export const ListPublicHistoryInput = GetPublicPageInput.extend({
	month: z
		.string()
		.regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'a month as YYYY-MM' })
		.optional()
});
export type ListPublicHistoryInput = z.input<typeof ListPublicHistoryInput>;

export const PublicHistoryOutput = z.object({
	access: z.enum(ACCESS_DECISIONS),
	head: PublicHead,
	// Resolved and open reports by month (YYYY-MM), newest month first, whole months only;
	// null unless granted.
	months: z.array(z.object({ month: z.string(), reports: z.array(PublicReport) })).nullable(),
	older: z.string().nullable() // the month the next (older) listing starts at, if any
});
export type PublicHistoryOutput = z.infer<typeof PublicHistoryOutput>;

export const UnlockInput = z.object({
	page: PageLocator,
	reader: ReaderFacts,
	password: z.string().min(1).max(256)
});
export type UnlockInput = z.input<typeof UnlockInput>;

export const RequestAccessInput = z.object({ page: PageLocator, email: z.email().max(320) });
export type RequestAccessInput = z.input<typeof RequestAccessInput>;

export const VerifyAccessInput = z.object({
	page: PageLocator,
	token: z.string().min(10).max(200)
});
export type VerifyAccessInput = z.input<typeof VerifyAccessInput>;

export const GrantOutput = z.object({
	cookie: z.object({ name: z.string(), value: z.string(), maxAge: z.number() })
});
export type GrantOutput = z.infer<typeof GrantOutput>;

export const PublicGateOutput = PublicPageOutput.pick({ access: true, head: true });
export type PublicGateOutput = z.infer<typeof PublicGateOutput>;

export const PublicFeedOutput = z.object({
	access: z.enum(ACCESS_DECISIONS),
	head: PublicHead,
	feed: z
		.object({
			url: z.string(), // the page's absolute address
			description: z.string(),
			updated_at: z.string(),
			reports: z.array(PublicReport.extend({ updated_at: z.string() })), // latest change first
			maintenances: z.array(PublicMaintenance.extend({ updated_at: z.string() }))
		})
		.nullable() // null unless access is granted
});
export type PublicFeedOutput = z.infer<typeof PublicFeedOutput>;

// Atlassian Statuspage v2 shapes (public API, `/api/v2/*.json`).
const V2Page = z.object({
	id: z.string(),
	name: z.string(),
	url: z.string(),
	time_zone: z.string(),
	updated_at: z.string()
});
export const StatuspageV2Component = z.object({
	id: z.string(),
	name: z.string(),
	status: z.enum([...IMPACTS, 'under_maintenance']),
	created_at: z.string(),
	updated_at: z.string(),
	position: z.number(),
	description: z.string().nullable(),
	showcase: z.boolean(),
	start_date: z.string().nullable(),
	group_id: z.string().nullable(),
	page_id: z.string(),
	group: z.boolean(),
	only_show_if_degraded: z.boolean(),
	components: z.array(z.string()).optional() // member ids, on groups only
});
export type StatuspageV2Component = z.infer<typeof StatuspageV2Component>;
export const StatuspageV2Incident = z.object({
	id: z.string(),
	name: z.string(),
	status: z.string(), // investigating|identified|monitoring|resolved; scheduled|in_progress|completed
	created_at: z.string(),
	updated_at: z.string(),
	monitoring_at: z.string().nullable(),
	resolved_at: z.string().nullable(),
	impact: z.enum(['none', 'minor', 'major', 'critical', 'maintenance']),
	shortlink: z.string(),
	started_at: z.string(),
	page_id: z.string(),
	incident_updates: z.array(
		z.object({
			id: z.string(),
			status: z.string(),
			body: z.string(),
			incident_id: z.string(),
			created_at: z.string(),
			updated_at: z.string(),
			display_at: z.string(),
			affected_components: z
				.array(
					z.object({
						code: z.string(),
						name: z.string(),
						old_status: z.string(),
						new_status: z.string()
					})
				)
				.nullable(),
			deliver_notifications: z.boolean(),
			custom_tweet: z.null(),
			tweet_id: z.null()
		})
	),
	components: z.array(StatuspageV2Component),
	scheduled_for: z.string().optional(),
	scheduled_until: z.string().optional()
});
export type StatuspageV2Incident = z.infer<typeof StatuspageV2Incident>;
export const StatuspageV2Output = z.object({
	page: V2Page,
	status: z.object({
		indicator: z.enum(['none', 'minor', 'major', 'critical', 'maintenance']),
		description: z.string()
	}),
	components: z.array(StatuspageV2Component),
	incidents: z.array(StatuspageV2Incident), // the latest 50 and every unresolved one, newest first
	scheduled_maintenances: z.array(StatuspageV2Incident) // the latest 50 by start, and every open one
});
export type StatuspageV2Output = z.infer<typeof StatuspageV2Output>;
export const StatuspageV2Result = z.object({
	access: z.enum(ACCESS_DECISIONS),
	head: PublicHead,
	v2: StatuspageV2Output.nullable()
});
export type StatuspageV2Result = z.infer<typeof StatuspageV2Result>;
