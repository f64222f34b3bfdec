import { createHmac } from 'node:crypto';
import type { Upstate } from '../app.ts';
import type { OAuthDeps } from '../domain/oauth/index.ts';
import { createClientDocumentFetcher } from './cimd.ts';

// The OAuth verbs' dependencies from the process configuration. The issuer is read at call
// time: tests bind the API server to a free port and set urls.api afterwards.
export function oauthDeps(upstate: Upstate): OAuthDeps {
	const { config } = upstate;
	const fetchClientDocument = createClientDocumentFetcher({ testCa: config.oauth.testCimdCa });
	return {
		db: upstate.db,
		get issuer() {
			return config.urls.api.replace(/\/$/, '');
		},
		get resource() {
			return `${config.urls.api.replace(/\/$/, '')}/mcp`;
		},
		get redirectPolicy() {
			return {
				ownHosts: [new URL(config.urls.api).hostname, new URL(config.urls.consent).hostname],
				domains: config.oauth.redirectDomains,
				schemes: config.oauth.editorSchemes
			};
		},
		fetchClientDocument,
		requestKey: createHmac('sha256', config.authSecret)
			.update('oauth pending request v1')
			.digest('hex')
	};
}
