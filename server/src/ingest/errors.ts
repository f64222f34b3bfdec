import type { ConnectError } from '@connectrpc/connect';
import { mapError } from '../adapters/connect/errors.ts';

// Ingest speaks Connect too: the same code mapping as /rpc.
export function toConnectError(err: unknown): ConnectError {
	return mapError(err, 'ingest');
}
