import type { OAuthDeps } from '../domain/oauth/index.ts';

// RFC 8414 authorization server metadata.
export function authorizationServerMetadata(deps: OAuthDeps) {
	const { issuer } = deps;
	return {
		issuer,
		authorization_endpoint: `${issuer}/oauth/authorize`,
		token_endpoint: `${issuer}/oauth/token`,
		registration_endpoint: `${issuer}/oauth/register`,
		revocation_endpoint: `${issuer}/oauth/revoke`,
		response_types_supported: ['code'],
		response_modes_supported: ['query'],
		grant_types_supported: ['authorization_code', 'refresh_token'],
		code_challenge_methods_supported: ['S256'],
		token_endpoint_auth_methods_supported: ['none'],
		revocation_endpoint_auth_methods_supported: ['none'],
		scopes_supported: ['read', 'write'],
		client_id_metadata_document_supported: true,
		authorization_response_iss_parameter_supported: true
	};
}

// RFC 9728 protected resource metadata for /mcp.
export function protectedResourceMetadata(deps: OAuthDeps) {
	return {
		resource: deps.resource,
		authorization_servers: [deps.issuer],
		scopes_supported: ['read', 'write'],
		bearer_methods_supported: ['header'],
		resource_name: 'Upstate MCP server'
	};
}
