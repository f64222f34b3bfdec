import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Upstate } from '../app.ts';
import { SLACK_VARIABLES, type SlackConfig } from '../config.ts';
import { ServiceError, ValidationError } from '../domain/errors.ts';
import {
	getSlackInstall,
	linkSlackTeam,
	requireSlackInstaller,
	unlinkSlackTeam,
	type SlackInstallOutput
} from '../domain/slack-install/index.ts';
import { createVault } from '../notify/vault.ts';
import type { TrpcContext } from '../router/trpc.ts';
import { oauthV2Access, SlackApiError } from './api.ts';

// "Add to Slack" (OAuth v2): the dashboard sends an owner or admin to Slack with a `state` bound
// to their session and workspace; the callback checks it, exchanges the code, links the team.

export const SLACK_SCOPES = [
	'app_mentions:read',
	'channels:history',
	'chat:write',
	'groups:history',
	'im:history',
	'mpim:history',
	'users:read',
	'users:read.email'
];
export const STATE_TTL_SECONDS = 10 * 60;
export const CALLBACK_PATH = '/settings/integrations/slack/callback';

export class SlackNotConfigured extends Error {
	constructor() {
		super(`The Slack agent is off on this server: set ${SLACK_VARIABLES.join(', ')}`);
	}
}

export function slackConfig(upstate: Upstate): SlackConfig {
	if (!upstate.config.slack) throw new SlackNotConfigured();
	return upstate.config.slack;
}

const stateKey = (upstate: Upstate) =>
	createHmac('sha256', upstate.config.authSecret).update('slack-install-state v1').digest();
const sessionTag = (sessionId: string) =>
	createHash('sha256').update(sessionId).digest('base64url').slice(0, 22);

function signState(upstate: Upstate, workspaceId: number, sessionId: string, now: number): string {
	const body = `${workspaceId}.${sessionTag(sessionId)}.${now + STATE_TTL_SECONDS}.${randomBytes(9).toString('base64url')}`;
	const mac = createHmac('sha256', stateKey(upstate)).update(body).digest('base64url');
	return `${body}.${mac}`;
}

function stateMatches(upstate: Upstate, state: string, workspaceId: number, sessionId: string) {
	const parts = state.split('.');
	if (parts.length !== 5) return false;
	const body = parts.slice(0, 4).join('.');
	const expected = Buffer.from(
		createHmac('sha256', stateKey(upstate)).update(body).digest('base64url')
	);
	const given = Buffer.from(parts[4]);
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
	const [ws, tag, expires] = parts;
	return (
		Number(ws) === workspaceId &&
		tag === sessionTag(sessionId) &&
		Number(expires) >= Math.floor(Date.now() / 1000)
	);
}

const redirectUri = (upstate: Upstate) => `${upstate.config.urls.dashboard}${CALLBACK_PATH}`;

function signedIn(ctx: TrpcContext) {
	if (!ctx.service || !ctx.sessionId)
		throw new ServiceError('UNAUTHORIZED', 'sign in to the dashboard to connect Slack');
	return { service: ctx.service, sessionId: ctx.sessionId };
}

// Where "Add to Slack" points for this session and workspace.
export async function slackInstallUrl(args: {
	upstate: Upstate;
	ctx: TrpcContext;
}): Promise<string> {
	const { upstate } = args;
	const config = slackConfig(upstate);
	const { service, sessionId } = signedIn(args.ctx);
	await requireSlackInstaller(service);
	const url = new URL('/oauth/v2/authorize', config.apiUrl);
	url.searchParams.set('client_id', config.clientId);
	url.searchParams.set('scope', SLACK_SCOPES.join(','));
	url.searchParams.set('redirect_uri', redirectUri(upstate));
	url.searchParams.set(
		'state',
		signState(upstate, service.workspace.id, sessionId, Math.floor(Date.now() / 1000))
	);
	return url.toString();
}

// Slack's redirect back: state first (a forged, expired or other session's state does nothing),
// then the code exchange, then the link (role and plan checked again by the verb).
export async function finishSlackInstall(args: {
	upstate: Upstate;
	ctx: TrpcContext;
	query: URLSearchParams;
}): Promise<SlackInstallOutput> {
	const { upstate, query } = args;
	const config = slackConfig(upstate);
	const { service, sessionId } = signedIn(args.ctx);
	const state = query.get('state') ?? '';
	if (!stateMatches(upstate, state, service.workspace.id, sessionId))
		throw new ValidationError(
			'this Slack install link is not from your session or has expired: start again from Settings → Integrations'
		);
	const error = query.get('error');
	if (error) throw new ValidationError(`Slack did not grant access (${error}): start again`);
	const code = query.get('code');
	if (!code)
		throw new ValidationError('Slack sent no code: start again from Settings → Integrations');
	await requireSlackInstaller(service);
	const access = await oauthV2Access(config, { code, redirectUri: redirectUri(upstate) });
	return linkSlackTeam({
		ctx: service,
		vault: createVault(upstate.config.authSecret),
		input: access
	});
}

// What Settings → Integrations shows: whether the agent is on here, and the linked team.
export async function slackIntegration(args: { upstate: Upstate; ctx: TrpcContext }) {
	const service = args.ctx.service;
	return {
		configured: args.upstate.config.slack !== null,
		install: service ? await getSlackInstall({ ctx: service }) : null
	};
}

export async function disconnectSlack(args: { ctx: TrpcContext }): Promise<void> {
	const { service } = signedIn(args.ctx);
	await unlinkSlackTeam({ ctx: service });
}

const STATUS: Record<string, number> = {
	UNAUTHORIZED: 401,
	FORBIDDEN: 403,
	LIMIT_EXCEEDED: 403,
	NOT_FOUND: 404,
	CONFLICT: 409,
	VALIDATION: 400
};

// The dashboard routes as web Request → Response (the SvelteKit files are one line each):
// `start` sends the browser to Slack, `callback` links the team and returns to the settings.
export async function handleSlackInstall(args: {
	upstate: Upstate;
	ctx: TrpcContext;
	step: 'start' | 'callback';
	url: URL;
}): Promise<Response> {
	const back = `${args.upstate.config.urls.dashboard}/settings/integrations`;
	try {
		const location =
			args.step === 'start'
				? await slackInstallUrl(args)
				: (await finishSlackInstall({ ...args, query: args.url.searchParams }),
					`${back}?slack=connected`);
		return new Response(null, { status: 303, headers: { location } });
	} catch (err) {
		const [status, message] =
			err instanceof SlackNotConfigured
				? [503, err.message]
				: err instanceof ServiceError && STATUS[err.code]
					? [STATUS[err.code], err.message]
					: err instanceof SlackApiError
						? [502, `${err.message}: start again from Settings → Integrations`]
						: [0, ''];
		if (!status) throw err;
		console.log(`[slack] install ${args.step} refused status=${status}`);
		return new Response(`Slack agent: ${message}`, {
			status,
			headers: { 'content-type': 'text/plain; charset=utf-8' }
		});
	}
}
