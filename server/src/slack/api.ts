import type { SlackConfig } from '../config.ts';

// The few Slack Web API methods the agent uses, over fetch: each answers { ok, error? }.
// Reads are form-encoded (users.info, oauth.v2.access accept no JSON); chat.* take JSON.

export class SlackApiError extends Error {
	readonly method: string;
	readonly error: string;
	constructor(method: string, error: string) {
		super(`Slack ${method} failed: ${error}`);
		this.method = method;
		this.error = error;
	}
}

type Answer = { ok: boolean; error?: string } & Record<string, unknown>;

async function call(
	config: SlackConfig,
	method: string,
	body: Record<string, unknown>,
	opts: { token?: string; json?: boolean; basic?: string } = {}
): Promise<Answer> {
	const headers: Record<string, string> = {};
	if (opts.token) headers.authorization = `Bearer ${opts.token}`;
	if (opts.basic) headers.authorization = `Basic ${opts.basic}`;
	let payload: string;
	if (opts.json) {
		headers['content-type'] = 'application/json; charset=utf-8';
		payload = JSON.stringify(body);
	} else {
		headers['content-type'] = 'application/x-www-form-urlencoded';
		payload = new URLSearchParams(
			Object.entries(body).map(([k, v]): [string, string] => [
				k,
				typeof v === 'string' ? v : JSON.stringify(v)
			])
		).toString();
	}
	let res: Response;
	try {
		res = await fetch(`${config.apiUrl}/${method}`, {
			method: 'POST',
			headers,
			body: payload,
			signal: AbortSignal.timeout(15_000)
		});
	} catch (err) {
		throw new SlackApiError(method, `unreachable (${err instanceof Error ? err.message : err})`);
	}
	const answer = (await res.json().catch(() => null)) as Answer | null;
	if (!answer) throw new SlackApiError(method, `HTTP ${res.status} without a JSON body`);
	if (!answer.ok) throw new SlackApiError(method, answer.error ?? 'unknown_error');
	return answer;
}

export type OAuthAccess = { teamId: string; teamName: string; botUserId: string; botToken: string };

export async function oauthV2Access(
	config: SlackConfig,
	args: { code: string; redirectUri: string }
): Promise<OAuthAccess> {
	const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64');
	const a = (await call(
		config,
		'oauth.v2.access',
		{ code: args.code, redirect_uri: args.redirectUri },
		{ basic }
	)) as Answer & {
		access_token?: string;
		bot_user_id?: string;
		team?: { id?: string; name?: string };
	};
	if (!a.access_token || !a.bot_user_id || !a.team?.id)
		throw new SlackApiError('oauth.v2.access', 'the answer has no bot token or team');
	return {
		teamId: a.team.id,
		teamName: a.team.name ?? '',
		botUserId: a.bot_user_id,
		botToken: a.access_token
	};
}

export type ThreadMessage = {
	ts: string;
	user?: string;
	bot_id?: string;
	username?: string;
	text?: string;
	subtype?: string;
};

// A bot-token client for one linked team.
export function slackClient(config: SlackConfig, token: string) {
	return {
		// users.info: the e-mail (null for bots) and the name people see in Slack.
		async user(user: string): Promise<{ email: string | null; name: string }> {
			const a = (await call(config, 'users.info', { user }, { token })) as Answer & {
				user?: {
					is_bot?: boolean;
					name?: string;
					real_name?: string;
					profile?: { email?: string; display_name?: string; real_name?: string };
				};
			};
			const u = a.user;
			return {
				email: u?.is_bot ? null : (u?.profile?.email ?? null),
				name: u?.profile?.display_name || u?.profile?.real_name || u?.real_name || u?.name || user
			};
		},
		// conversations.replies: one page (oldest first) of a thread, up to `latest` exclusive.
		async replies(args: {
			channel: string;
			ts: string;
			latest: string;
			limit: number;
		}): Promise<ThreadMessage[]> {
			const a = (await call(
				config,
				'conversations.replies',
				{
					channel: args.channel,
					ts: args.ts,
					latest: args.latest,
					inclusive: 'false',
					limit: String(args.limit)
				},
				{ token }
			)) as Answer & { messages?: ThreadMessage[] };
			return a.messages ?? [];
		},
		async postMessage(message: Record<string, unknown>): Promise<string | undefined> {
			const a = await call(config, 'chat.postMessage', message, { token, json: true });
			return typeof a.ts === 'string' ? a.ts : undefined;
		},
		async postEphemeral(message: Record<string, unknown>): Promise<void> {
			await call(config, 'chat.postEphemeral', message, { token, json: true });
		},
		async update(message: Record<string, unknown>): Promise<void> {
			await call(config, 'chat.update', message, { token, json: true });
		}
	};
}
export type SlackClient = ReturnType<typeof slackClient>;
