import { z } from 'zod';

// A lone UTF-16 surrogate cannot be stored: refused here as bad input, not at the database.
const text = (max: number) =>
	z
		.string()
		.max(max)
		.refine((v) => !/\p{Cs}/u.test(v), { error: 'must be valid Unicode text' });

// RFC 7591 registration: public clients only (spec 4.2 rule 3). Unknown fields are ignored.
export const RegisterClientInput = z.object({
	redirect_uris: z.array(text(2048)).min(1).max(10),
	client_name: text(256).optional(),
	token_endpoint_auth_method: text(64).optional(),
	grant_types: z.array(text(64)).optional(),
	response_types: z.array(text(64)).optional(),
	scope: text(64).optional()
});
export type RegisterClientInput = z.input<typeof RegisterClientInput>;

export const RegisteredClientOutput = z.object({
	client_id: z.string(),
	client_id_issued_at: z.number(),
	client_name: z.string(),
	redirect_uris: z.array(z.string()),
	grant_types: z.array(z.string()),
	response_types: z.array(z.string()),
	token_endpoint_auth_method: z.literal('none'),
	scope: z.string()
});
export type RegisteredClientOutput = z.infer<typeof RegisteredClientOutput>;

// The authorization request's query (RFC 6749 4.1.1, RFC 7636, RFC 8707), as /oauth/authorize
// receives it and the consent page posts it back.
export const AuthorizationRequestInput = z.object({
	client_id: text(2048).optional(),
	redirect_uri: text(2048).optional(),
	response_type: text(64).optional(),
	code_challenge: text(128).optional(),
	code_challenge_method: text(16).optional(),
	scope: text(256).optional(),
	state: text(1024).optional(),
	resource: text(2048).optional()
});
export type AuthorizationRequestInput = z.input<typeof AuthorizationRequestInput>;

export const Access = z.enum(['read', 'write']);
export type Access = z.infer<typeof Access>;

// The consent screen carries the request /oauth/authorize checked and sealed (pending.ts).
export const PendingRequestInput = z.object({ request: z.string().max(16384) });
export type PendingRequestInput = z.input<typeof PendingRequestInput>;

export const ApproveAuthorizationInput = PendingRequestInput.extend({
	workspaceId: z.coerce.number().int().positive(),
	access: Access
});
export type ApproveAuthorizationInput = z.input<typeof ApproveAuthorizationInput>;

// /oauth/token: form or JSON body (spec 4.2).
export const TokenRequestInput = z.object({
	grant_type: text(64).optional(),
	code: text(256).optional(),
	redirect_uri: text(2048).optional(),
	client_id: text(2048).optional(),
	code_verifier: text(256).optional(),
	refresh_token: text(256).optional(),
	resource: text(2048).optional(),
	scope: text(256).optional()
});
export type TokenRequestInput = z.input<typeof TokenRequestInput>;

export const RevokeTokenInput = z.object({
	token: text(256).optional(),
	token_type_hint: text(64).optional(),
	client_id: text(2048).optional()
});
export type RevokeTokenInput = z.input<typeof RevokeTokenInput>;

export const GrantOutput = z.object({
	id: z.number(),
	client_id: z.string(),
	client_name: z.string(),
	client_origin: z.string(), // "registered" or the metadata document's host
	scope: Access,
	user_id: z.number(),
	user_email: z.string(),
	created_at: z.string(),
	last_used_at: z.string().nullable()
});
export type GrantOutput = z.infer<typeof GrantOutput>;
export const GrantListOutput = z.object({ data: z.array(GrantOutput) });
export type GrantListOutput = z.infer<typeof GrantListOutput>;

export const GrantIdInput = z.object({ grantId: z.coerce.number().int().positive() });
export type GrantIdInput = z.input<typeof GrantIdInput>;

// The client's own document (spec 4.2 rule 5).
export const ClientMetadataDocument = z.object({
	client_id: text(2048),
	client_name: text(256).optional(),
	redirect_uris: z.array(text(2048)).min(1).max(20),
	token_endpoint_auth_method: text(64).optional()
});
