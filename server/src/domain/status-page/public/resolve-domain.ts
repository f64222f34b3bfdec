import type { Db } from '../../../db/client.ts';
import { ServiceError } from '../../errors.ts';
import { findPublicPage } from './open-page.ts';

// Host → slug for the status site's custom-domain routing; null when the host serves no page
// (including a page whose plan lacks `custom-domain`). A slug is public information.
export async function resolveCustomDomain(args: { db: Db; host: string }): Promise<string | null> {
	if (args.host.length > 253) return null;
	try {
		return (await findPublicPage(args.db, { domain: args.host })).row.slug;
	} catch (err) {
		if (err instanceof ServiceError && err.code === 'NOT_FOUND') return null;
		throw err;
	}
}
