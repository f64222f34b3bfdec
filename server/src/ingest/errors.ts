import type { Interceptor } from '@connectrpc/connect';
import { mapError } from '../adapters/connect/errors.ts';

// Ingest speaks Connect too: every error leaves through the same code mapping as /rpc, in one
// interceptor rather than a try/catch per method. An INTERNAL error is logged once, as [ingest].
export const mapIngestErrors: Interceptor = (next) => async (req) => {
	try {
		return await next(req);
	} catch (err) {
		throw mapError(err, 'ingest');
	}
};
