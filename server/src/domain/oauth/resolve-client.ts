import type { OAuthClient } from '@prisma/client';
import { z } from 'zod';
import type { OAuthDeps } from './deps.ts';
import { OAuthError } from './errors.ts';
import { ClientMetadataDocument } from './schemas.ts';

export type ResolvedClient = { row: OAuthClient; redirectUris: string[] };

// A client_id that is an https URL with a path names a Client ID Metadata Document.
export function isMetadataDocumentUrl(clientId: string): boolean {
	try {
		const url = new URL(clientId);
		return url.protocol === 'https:' && url.pathname !== '/' && !url.hash;
	} catch {
		return false;
	}
}

// The client behind a client_id: a registered one, or its metadata document fetched now (every
// authorization request fetches it again: spec 4.2 rule 5). The document's client is kept as a
// row so codes and grants can point at it; its name and redirect URIs follow the document.
export async function resolveClient(deps: OAuthDeps, clientId: string): Promise<ResolvedClient> {
	if (!isMetadataDocumentUrl(clientId)) {
		const row = await deps.db.oAuthClient.findUnique({ where: { id: clientId } });
		if (!row || row.isMetadataDocument)
			throw new OAuthError('invalid_client', `unknown client ${clientId}: register it first`);
		return { row, redirectUris: z.array(z.string()).parse(JSON.parse(row.redirectUris)) };
	}
	let raw: unknown;
	try {
		raw = await deps.fetchClientDocument(clientId);
	} catch (err) {
		throw new OAuthError(
			'invalid_client',
			`could not fetch the client metadata document ${clientId}: ${(err as Error).message}`
		);
	}
	const doc = ClientMetadataDocument.safeParse(raw);
	if (!doc.success)
		throw new OAuthError(
			'invalid_client',
			`the client metadata document ${clientId} is not valid: it needs client_id and redirect_uris`
		);
	if (doc.data.client_id !== clientId)
		throw new OAuthError(
			'invalid_client',
			`the client metadata document's client_id (${doc.data.client_id}) must equal its URL ${clientId}`
		);
	if ((doc.data.token_endpoint_auth_method ?? 'none') !== 'none')
		throw new OAuthError('invalid_client', 'only public clients (token_endpoint_auth_method none)');
	const data = {
		clientName: doc.data.client_name?.trim() || new URL(clientId).host,
		redirectUris: JSON.stringify(doc.data.redirect_uris),
		isMetadataDocument: true
	};
	const row = await deps.db.oAuthClient.upsert({
		where: { id: clientId },
		create: { id: clientId, ...data },
		update: data
	});
	return { row, redirectUris: doc.data.redirect_uris };
}
