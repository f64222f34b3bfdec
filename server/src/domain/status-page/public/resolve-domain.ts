import type { Db } from '../../../db/client.ts';
import { ServiceError } from '../../errors.ts';
import { findPublicPage } from './open-page.ts';

const hostname = (host: string) => host.toLowerCase().replace(/:\d+$/, '');

/**
 * Host → slug for the status site's custom-domain routing; null when the host serves no page
 * (including a page whose plan lacks `custom-domain`). A slug is public information. The status
 * site's own host (STATUS_PAGE_URL) is never a page's domain, whatever a page claims: it would
 * replace every page.
 */
export async function resolveCustomDomain(args: {
	db: Db;
	host: string;
	statusPageUrl: string;
}): Promise<string | null> {
	if (args.host.length > 253) return null;
	if (hostname(args.host) === new URL(args.statusPageUrl).hostname) return null;
	try {
		return (await findPublicPage(args.db, { domain: args.host })).row.slug;
	} catch (err) {
		if (err instanceof ServiceError && err.code === 'NOT_FOUND') return null;
		throw err;
	}
}
