import type { StatusPage } from '@prisma/client';
import type { AnalyticsStore } from '../../../analytics/index.ts';
import type { Db } from '../../../db/client.ts';
import type { Mailer } from '../../../mail/index.ts';
import { NotFoundError } from '../../errors.ts';
import { resolveLimits, type Limits } from '../../limits.ts';
import { clientAddress, isInRanges } from './client-address.ts';
import { isGrantValid } from './grant.ts';
import type { RenderCache } from './render-cache.ts';
import type { AccessDecision, PageLocator, PublicHead, ReaderFacts } from './schemas.ts';
import { resolveTheme } from './theme.ts';

// Process services the public verbs need; the router builds this from `upstate`.
export type PublicDeps = {
	db: Db;
	analytics: Pick<AnalyticsStore, 'dailyStatus'>;
	mailer: Mailer;
	secret: string; // AUTH_SECRET: signs reader passes
	trustedProxyHops: number; // TRUSTED_PROXY_HOPS
	statusPageUrl: string; // STATUS_PAGE_URL: base of mailed access links
	openedPages?: RenderCache<OpenedPage>; // memo of findPublicPage (the gate itself always runs)
	now?: () => Date;
};

export type OpenedPage = { row: StatusPage; limits: Limits; viaDomain: boolean };

/**
 * Finds a published page by slug, or by custom domain when the workspace's plan has
 * `custom-domain` (without it the domain serves nothing and the slug address keeps working).
 */
export async function findPublicPage(db: Db, locator: PageLocator): Promise<OpenedPage> {
	const where =
		'slug' in locator
			? { slug: locator.slug, published: true }
			: { customDomain: locator.domain.toLowerCase().replace(/:\d+$/, ''), published: true };
	const row = await db.statusPage.findFirst({ where, include: { workspace: true } });
	const label = 'slug' in locator ? locator.slug : locator.domain;
	if (!row) throw new NotFoundError('status page', label);
	const { workspace, ...page } = row;
	const limits = resolveLimits(workspace.limits);
	const viaDomain = !('slug' in locator);
	if (viaDomain && !limits['custom-domain']) throw new NotFoundError('status page', label);
	return { row: page, limits, viaDomain };
}

/**
 * The access gate, decided here for every public read (page, report, history, and any later
 * feed or badge). The gate follows the page's `access_type` even when the plan no longer has
 * the feature: a downgrade never opens a protected page (the write side refuses to set it).
 */
export function decideAccess(args: {
	row: StatusPage;
	reader: ReaderFacts;
	secret: string;
	trustedProxyHops: number;
	now: Date;
}): AccessDecision {
	const { row, reader } = args;
	switch (row.accessType) {
		case 'password':
		case 'email-domain': {
			// Each pass is signed for one page, so any cookie the reader holds may be offered.
			const ok = (reader.grants ?? []).some((value) =>
				isGrantValid({ secret: args.secret, page: row, value, now: args.now })
			);
			return ok ? 'granted' : row.accessType;
		}
		case 'ip-restriction': {
			const ip = clientAddress({
				socketAddress: reader.socketAddress,
				forwardedFor: reader.forwardedFor ?? null,
				trustedProxyHops: args.trustedProxyHops
			});
			return isInRanges(ip, row.allowedIpRanges) ? 'granted' : 'ip-denied';
		}
		case 'public':
			return 'granted';
		default:
			// An access type this code does not know is closed, not open.
			return 'ip-denied';
	}
}

/**
 * What every view shows, gated or not. Plan fallbacks: i18n off → only `default_locale`;
 * custom-theme off → the theme key alone; white-label off → "Powered by Upstate"; the
 * `allow_index: false` setting is honoured even without `no-index` (hiding is the safe side),
 * and a page behind a gate is never indexed.
 */
export function toHead(opened: OpenedPage, access: AccessDecision): PublicHead {
	const { row, limits } = opened;
	const locales: string[] = limits.i18n ? JSON.parse(row.locales) : [];
	return {
		id: row.id,
		title: row.title,
		slug: row.slug,
		icon: row.icon,
		base: opened.viaDomain ? '' : `/${row.slug}`,
		allow_index: row.allowIndex && row.accessType === 'public' && access === 'granted',
		default_locale: row.defaultLocale,
		locales: [...new Set([row.defaultLocale, ...locales])],
		theme: resolveTheme({
			theme: row.theme,
			customTheme: row.customTheme,
			allowCustom: limits['custom-theme']
		}),
		white_label: limits['white-label'],
		subscribe: limits['status-subscribers']
	};
}

export async function openPage(args: {
	deps: PublicDeps;
	locator: PageLocator;
	reader: ReaderFacts;
}): Promise<OpenedPage & { access: AccessDecision; head: PublicHead; now: Date }> {
	const now = args.deps.now?.() ?? new Date();
	const { db, openedPages } = args.deps;
	const opened = await (openedPages
		? openedPages.get(JSON.stringify(args.locator), () => findPublicPage(db, args.locator))
		: findPublicPage(db, args.locator));
	const access = decideAccess({
		row: opened.row,
		reader: args.reader,
		secret: args.deps.secret,
		trustedProxyHops: args.deps.trustedProxyHops,
		now
	});
	return { ...opened, access, head: toHead(opened, access), now };
}
