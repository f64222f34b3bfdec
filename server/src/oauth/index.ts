import express, { type Request, type Response } from 'express';
import type { Upstate } from '../app.ts';
import {
	checkAuthorizationRequest,
	OAuthError,
	registerClient,
	requestToken,
	revokeToken,
	sealRequest
} from '../domain/oauth/index.ts';
import { limitMessage, originOf, type RateLimits } from '../adapters/rate-limit.ts';
import { oauthDeps } from './deps.ts';
import { sendOAuthError, toOAuthError } from './errors.ts';
import { authorizationServerMetadata, protectedResourceMetadata } from './metadata.ts';

const BODY_LIMIT = '64kb';

// The OAuth 2.1 authorization server for MCP clients (spec 4.2), mounted on the API server
// before its JSON parser: these endpoints take forms too and answer errors as RFC 6749 bodies.
export function createOAuthRouter(args: { upstate: Upstate; limits: RateLimits }): express.Router {
	const deps = oauthDeps(args.upstate);
	const consentUrl = () => `${args.upstate.config.urls.consent.replace(/\/$/, '')}/oauth/consent`;
	const router = express.Router();
	// Public clients in browsers (an inspector, a web assistant) call these cross-origin; no
	// cookies are involved, so any origin may.
	router.use(
		['/.well-known', '/oauth/register', '/oauth/token', '/oauth/revoke'],
		(req, res, next) => {
			res.set('Access-Control-Allow-Origin', '*');
			if (req.method !== 'OPTIONS') return next();
			res
				.set('Access-Control-Allow-Methods', 'GET, POST')
				.set('Access-Control-Allow-Headers', 'content-type, mcp-protocol-version')
				.status(204)
				.end();
		}
	);
	router.get('/.well-known/oauth-authorization-server', (_req, res) => {
		res.json(authorizationServerMetadata(deps));
	});
	router.get(
		['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'],
		(_req, res) => {
			res.json(protectedResourceMetadata(deps));
		}
	);
	// Registering writes a row and authorizing may fetch a metadata document, both without a
	// credential: each is charged to the client address (RATE_LIMIT_OAUTH_REQUESTS per window),
	// so neither can be used to fill the database or to fetch documents on command.
	const perAddress: express.RequestHandler = async (req, res, next) => {
		const verdict = await args.limits.chargeOAuth(originOf(req));
		res.set(verdict.headers);
		if (verdict.allowed) return next();
		const description = limitMessage(verdict);
		res.status(429).set('Cache-Control', 'no-store');
		if (req.path === '/oauth/authorize') return void res.type('text/plain').send(description);
		res.json({ error: 'temporarily_unavailable', error_description: description });
	};
	const body = [
		express.json({ limit: BODY_LIMIT }),
		express.urlencoded({ extended: false, limit: BODY_LIMIT })
	];
	router.post('/oauth/register', perAddress, ...body, async (req, res) => {
		try {
			res
				.status(201)
				.set('Cache-Control', 'no-store')
				.json(await registerClient({ deps, input: req.body }));
		} catch (err) {
			sendOAuthError(res, err);
		}
	});
	router.get('/oauth/authorize', perAddress, async (req, res) => {
		try {
			// The document of a metadata-document client is fetched here, once for this request;
			// the consent screen gets the checked request sealed (domain/oauth/pending.ts).
			const request = await checkAuthorizationRequest({ deps, input: query(req) });
			const target = new URL(consentUrl());
			target.searchParams.set('request', sealRequest(deps.requestKey, request));
			res.redirect(302, target.href);
		} catch (err) {
			if (err instanceof OAuthError && err.redirectTo) return res.redirect(302, err.redirectTo);
			errorPage(res, err);
		}
	});
	router.post('/oauth/token', ...body, async (req, res) => {
		try {
			res
				.set('Cache-Control', 'no-store')
				.set('Pragma', 'no-cache')
				.json(await requestToken({ deps, input: req.body }));
		} catch (err) {
			sendOAuthError(res, err);
		}
	});
	router.post('/oauth/revoke', ...body, async (req, res) => {
		try {
			await revokeToken({ deps, input: req.body });
			res.status(200).set('Cache-Control', 'no-store').json({});
		} catch (err) {
			sendOAuthError(res, err);
		}
	});
	// Bodies too large or malformed, on these paths only.
	router.use(
		'/oauth',
		(err: unknown, _req: Request, res: Response, _next: express.NextFunction) => {
			sendOAuthError(res, err);
		}
	);
	return router;
}

// Only the parameters the authorization request defines, each once, as strings.
function query(req: Request): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(req.query)) if (typeof v === 'string') out[k] = v;
	return out;
}

// Before the client's redirect URI is trusted, an error is shown here, never redirected.
function errorPage(res: Response, err: unknown): void {
	const { status, error, description } = toOAuthError(err);
	const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
	res
		.status(status === 401 ? 400 : status)
		.type('html')
		.send(
			`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cannot connect · Upstate</title></head><body style="font-family:system-ui;max-width:40rem;margin:4rem auto"><h1>This app cannot connect to Upstate</h1><p>${escape(description)}</p><p><code>${escape(error)}</code>: go back to the app and start connecting again, or tell its developer.</p></body></html>`
		);
}
