import type http from 'node:http';
import { ConnectError, Code, type HandlerContext } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import type { Upstate } from '../app.ts';
import { ingestCheckResults } from '../domain/check-result/index.ts';
import {
	authenticatePrivateLocation,
	claimRunRequests,
	listAssignedMonitors,
	markPrivateLocationSeen,
	type AuthenticatedLocation
} from '../domain/private-location/index.ts';
import { IngestService } from '@upstate/proto/ingest';
import { mapIngestErrors } from './errors.ts';
import { forwardStatusChanges } from './forward.ts';
import { fromWireResult, toWireMonitor } from './wire.ts';

// The ingest server (port 8081, the spec's private-location service), speaking ConnectRPC.
// Probes authenticate with `Authorization: Bearer <SERVICE_KEY>`.
async function authenticate(upstate: Upstate, ctx: HandlerContext): Promise<AuthenticatedLocation> {
	const key = /^Bearer (\S+)$/.exec(ctx.requestHeader.get('authorization') ?? '')?.[1] ?? '';
	const location = key ? await authenticatePrivateLocation({ db: upstate.db, key }) : null;
	if (!location)
		throw new ConnectError(
			'unknown or revoked private location key: check SERVICE_KEY',
			Code.Unauthenticated
		);
	return location;
}

export function createIngestHandler(args: { upstate: Upstate }): http.RequestListener {
	const { upstate } = args;
	return connectNodeAdapter({
		interceptors: [mapIngestErrors],
		routes(router) {
			router.service(IngestService, {
				async listMonitors(_req, ctx) {
					const location = await authenticate(upstate, ctx);
					const monitors = await listAssignedMonitors({ db: upstate.db, location });
					await markPrivateLocationSeen({ db: upstate.db, location });
					console.log(
						`[ingest] monitors location=${location.privateLocationId} count=${monitors.length}`
					);
					return { locationName: location.name, monitors: monitors.map(toWireMonitor) };
				},
				async claimRuns(_req, ctx) {
					const location = await authenticate(upstate, ctx);
					const monitors = await claimRunRequests({ db: upstate.db, location });
					if (monitors.length > 0)
						console.log(
							`[ingest] runs claimed location=${location.privateLocationId} monitors=${monitors.map((m) => m.id).join(',')}`
						);
					return { monitors: monitors.map(toWireMonitor) };
				},
				async ingestResults(req, ctx) {
					const location = await authenticate(upstate, ctx);
					const outcome = await ingestCheckResults({
						db: upstate.db,
						analytics: upstate.analytics,
						location,
						input: { results: req.results.map(fromWireResult) }
					});
					console.log(
						`[ingest] results location=${location.privateLocationId} accepted=${outcome.accepted} duplicates=${outcome.duplicates} rejected=${outcome.rejected} changes=${outcome.changes.length}`
					);
					await forwardStatusChanges({
						workflowsUrl: upstate.config.urls.workflows,
						cronSecret: upstate.config.cronSecret,
						changes: outcome.changes
					});
					return {
						accepted: outcome.accepted,
						duplicates: outcome.duplicates,
						rejected: outcome.rejected
					};
				}
			});
		}
	});
}
