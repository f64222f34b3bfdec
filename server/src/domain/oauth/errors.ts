import { ServiceError } from '../errors.ts';

// RFC 6749 / 7591 / 8707 error codes the endpoints answer with.
export type OAuthErrorCode =
	| 'invalid_request'
	| 'invalid_client'
	| 'invalid_grant'
	| 'unauthorized_client'
	| 'unsupported_grant_type'
	| 'unsupported_response_type'
	| 'invalid_scope'
	| 'invalid_target'
	| 'access_denied'
	| 'invalid_redirect_uri'
	| 'invalid_client_metadata'
	| 'server_error';

// A VALIDATION error that carries its OAuth code: the /oauth adapter answers it as an RFC 6749
// body, the dashboard shows its message. `redirect` is set once the redirect URI is trusted.
export class OAuthError extends ServiceError {
	readonly error: OAuthErrorCode;
	readonly redirectTo?: string; // the client's redirect URI carrying this error
	constructor(error: OAuthErrorCode, description: string, redirectTo?: string) {
		super(error === 'invalid_client' ? 'UNAUTHORIZED' : 'VALIDATION', description);
		this.error = error;
		this.redirectTo = redirectTo;
	}
}
