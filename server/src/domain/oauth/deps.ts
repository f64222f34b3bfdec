import type { Db } from '../../db/client.ts';
import type { RedirectPolicy } from './redirect-uri.ts';

// What the OAuth verbs need from the process: built once by the adapter (oauth/deps.ts).
export type OAuthDeps = {
	db: Db;
	issuer: string; // OAUTH_ISSUER, no trailing slash
	resource: string; // `${issuer}/mcp`, the one protected resource
	redirectPolicy: RedirectPolicy;
	// Fetches a Client ID Metadata Document (SSRF-guarded, 5 s, size-capped, JSON only).
	fetchClientDocument: (url: string) => Promise<unknown>;
	// Seals a checked authorization request for the consent screen (pending.ts).
	requestKey: string;
};
