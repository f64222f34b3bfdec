import type { Db } from '../../db/client.ts';
import type { AuthenticatedLocation } from './authenticate.ts';

// A probe is alive when it reports results or refreshes its monitor list (at least every
// 5 minutes), so a location whose monitors all run every 30m/1h, or that has none, is not
// taken for down by the health cron. Only that cron changes the status (spec 3.3), so that
// every change is audited and mailed once; this just refreshes last_seen_at.
export async function markPrivateLocationSeen(args: {
	db: Db;
	location: AuthenticatedLocation;
}): Promise<void> {
	await args.db.privateLocation.update({
		where: { id: args.location.privateLocationId },
		data: { lastSeenAt: new Date() }
	});
}
