import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Upstate } from '../app.ts';
import {
	ChatBudgetExceeded,
	ChatProviderError,
	MAX_MESSAGE_CHARS,
	openChat,
	runHeldTool,
	type HoldPublishing
} from '../assistant/chat.ts';
import type { WorkspaceRef } from '../domain/context.ts';
import { LimitExceededError } from '../domain/errors.ts';
import { memberByEmail, slackTeamLink, type SlackTeamLink } from '../domain/slack-install/index.ts';
import {
	claimSlackCall,
	findSlackCall,
	finishSlackCall,
	holdSlackCall,
	PENDING_TTL_MS,
	setSlackCallMessage
} from '../domain/slack-pending-call/index.ts';
import { createVault } from '../notify/vault.ts';
import type { TrpcContext } from '../router/trpc.ts';
import { slackClient, type SlackClient } from './api.ts';
import { SlackNotConfigured } from './install.ts';
import { verifySlackSignature } from './signature.ts';

// The chat-workspace agent: Slack events in, the assistant's tool loop run as the Upstate member
// with the Slack user's e-mail, the answer posted in the thread. Publishing calls are held for a
// human button (spec 4.1 rule 7): "Publish" (notify false), "Publish and notify", "Cancel".

export type SlackRequest = { header(name: string): string | null; body: string };
export type SlackAnswer = { status: number; body: string; contentType?: string };

// Held calls live in the database (slack_pending_call) for PENDING_TTL_MS: a restart or another
// API replica still answers the button. Seen event ids stay in memory (Slack's retries come
// within minutes, to the process that was slow).
export const ACCESS_MESSAGE = (email: string | null) =>
	`I can only act for members of the linked Upstate workspace, and none has ${email ? `the e-mail address ${email}` : 'your Slack e-mail address'}. Ask an owner or admin to invite that address (Upstate → Settings → Members), then mention me again.`;

const EventEnvelope = z.object({
	type: z.string(),
	challenge: z.string().optional(),
	team_id: z.string().optional(),
	event_id: z.string().optional(),
	event: z
		.object({
			type: z.string(),
			user: z.string().optional(),
			bot_id: z.string().optional(),
			subtype: z.string().optional(),
			text: z.string().optional(),
			channel: z.string().optional(),
			channel_type: z.string().optional(),
			ts: z.string().optional(),
			thread_ts: z.string().optional()
		})
		.passthrough()
		.optional()
});

const ActionPayload = z.object({
	type: z.literal('block_actions'),
	team: z.object({ id: z.string() }),
	user: z.object({ id: z.string() }),
	channel: z.object({ id: z.string() }).optional(),
	container: z.object({ message_ts: z.string().optional(), channel_id: z.string().optional() }),
	actions: z.array(z.object({ action_id: z.string(), value: z.string().optional() })).min(1)
});

const ACTIONS = { publish: false, publish_notify: true } as const;

export type SlackAgent = ReturnType<typeof createSlackAgent>;

export function createSlackAgent(upstate: Upstate) {
	const vault = createVault(upstate.config.authSecret);
	const seenEvents = new Map<string, number>();
	const running = new Set<Promise<void>>();

	const background = (what: string, fn: () => Promise<void>) => {
		const p = fn()
			.catch((err) =>
				console.error(`[slack] ${what} failed: ${err instanceof Error ? err.message : String(err)}`)
			)
			.finally(() => running.delete(p));
		running.add(p);
	};

	function sweep(now: number) {
		for (const [id, at] of seenEvents) if (at < now) seenEvents.delete(id);
		// Bounded: the oldest go first.
		while (seenEvents.size >= 5000) seenEvents.delete(seenEvents.keys().next().value as string);
	}

	function check(req: SlackRequest): SlackAnswer | null {
		const config = upstate.config.slack;
		if (!config) return { status: 503, body: new SlackNotConfigured().message };
		const ok = verifySlackSignature({
			secret: config.signingSecret,
			timestamp: req.header('x-slack-request-timestamp'),
			signature: req.header('x-slack-signature'),
			body: req.body
		});
		return ok ? null : { status: 401, body: 'invalid Slack signature or stale timestamp' };
	}

	const contextFor = (
		workspace: WorkspaceRef,
		member: { userId: number; email: string; role: 'owner' | 'admin' | 'member' }
	): TrpcContext => {
		const requestId = randomUUID();
		return {
			upstate,
			db: upstate.db,
			requestId,
			user: { id: member.userId, email: member.email },
			sessionId: null,
			service: {
				db: upstate.db,
				workspace,
				actor: { type: 'user', userId: member.userId, role: member.role },
				requestId
			}
		};
	};

	// The member this Slack user is, by e-mail; null after telling them how to get access.
	async function memberFor(
		link: SlackTeamLink,
		names: Profiles,
		user: string,
		tell: (text: string) => Promise<void>
	) {
		const email = (await names.profile(user)).email;
		const member = email
			? await memberByEmail({ db: upstate.db, workspaceId: link.workspace.id, email })
			: null;
		if (!member) {
			console.log(`[slack] no member workspaceId=${link.workspace.id} slackUser=${user}`);
			await tell(ACCESS_MESSAGE(email));
			return null;
		}
		return contextFor(link.workspace, member);
	}

	async function answer(
		teamId: string,
		event: { user: string; text: string; channel: string; ts: string; thread_ts?: string }
	) {
		const link = await slackTeamLink({ db: upstate.db, vault, teamId });
		if (!link) return console.log(`[slack] event from unlinked team ${teamId}: ignored`);
		// The bot's own messages (a mention of itself, a DM echo) never start a turn: no loop.
		if (event.user === link.botUserId) return;
		const slack = slackClient(upstate.config.slack!, link.botToken);
		const thread_ts = event.thread_ts ?? event.ts;
		const post = (text: string, blocks?: unknown[]) =>
			slack.postMessage({
				channel: event.channel,
				thread_ts,
				text,
				...(blocks ? { blocks } : {})
			});
		const say = async (text: string) => void (await post(text));
		if (!link.workspace.limits['slack-agent'])
			return say(
				`${new LimitExceededError('slack-agent', false).message}: an owner can change the plan, or disconnect Slack in Upstate → Settings → Integrations.`
			);
		const names = profiles(slack);
		const ctx = await memberFor(link, names, event.user, say);
		if (!ctx) return;
		const text = clean(event.text, link.botUserId);
		if (!text) return say('Ask me about your monitors, status pages, reports or maintenances.');
		const earlier =
			event.thread_ts && event.thread_ts !== event.ts
				? await threadContext(slack, names, link, event.channel, event.thread_ts, event.ts)
				: [];
		const hold: HoldPublishing = async ({ name, input }) => {
			const scope = { db: upstate.db, teamId, workspaceId: link.workspace.id };
			const id = await holdSlackCall({
				...scope,
				channelId: event.channel,
				toolName: name,
				input,
				requestedByUserId: ctx.user!.id
			});
			const summary = escape(
				`The assistant wants to run \`${name}\` with ${JSON.stringify(input)}`.slice(0, 2900)
			);
			const messageTs = await post(summary, [
				{ type: 'section', text: { type: 'mrkdwn', text: summary } },
				{
					type: 'actions',
					elements: [
						button('Publish', 'publish', id, 'primary'),
						button('Publish and notify', 'publish_notify', id),
						button('Cancel', 'cancel', id, 'danger')
					]
				}
			]);
			if (messageTs) await setSlackCallMessage({ ...scope, id, messageTs });
			return 'Not run yet: the user is asked in Slack to choose Publish, Publish and notify (subscribers are told), or Cancel.';
		};
		let reply: string;
		try {
			const chat = await openChat({
				ctx,
				upstate,
				request: { messages: [...earlier, { role: 'user', content: text }], notify: false },
				hold,
				surface: 'in Slack, acting in one Upstate workspace'
			});
			reply = (await chat.run()).reply;
		} catch (err) {
			if (err instanceof ChatBudgetExceeded) return say(err.message);
			if (err instanceof ChatProviderError) {
				console.error(`[slack] provider error: ${err.message}`);
				return say(`The assistant's model provider failed: ${err.message}`);
			}
			if (!upstate.config.ai)
				return say(
					'The assistant is not configured on this Upstate server (AI_BASE_URL or AI_GATEWAY_API_KEY).'
				);
			throw err;
		}
		await say(escape(reply));
	}

	async function act(p: z.infer<typeof ActionPayload>) {
		const action = p.actions[0];
		const id = action.value ?? '';
		const channel = p.container.channel_id ?? p.channel?.id ?? '';
		const ts = p.container.message_ts;
		const link = await slackTeamLink({ db: upstate.db, vault, teamId: p.team.id });
		if (!link) return;
		const slack = slackClient(upstate.config.slack!, link.botToken);
		const tell = (text: string) => slack.postEphemeral({ channel, user: p.user.id, text });
		const scope = { db: upstate.db, teamId: p.team.id, workspaceId: link.workspace.id, id };
		const h = await findSlackCall(scope);
		// Another team's id is as unknown as an expired one.
		if (!h || h.expired) return tell('This request has expired: ask me again.');
		const already = (outcome: string | null) => tell(`Already done: ${outcome ?? 'in progress'}`);
		if (h.state !== 'pending') return already(h.outcome);
		const ctx = await memberFor(link, profiles(slack), p.user.id, tell);
		if (!ctx) return; // still pending: a member may click
		const cancel = !(action.action_id in ACTIONS);
		// The one click that moves it out of pending runs it; any other is told what happened.
		if (!(await claimSlackCall({ ...scope, to: cancel ? 'cancelled' : 'done' }))) {
			const now = await findSlackCall(scope);
			if (!now || now.expired) return tell('This request has expired: ask me again.');
			return already(now.outcome);
		}
		const who = ctx.user!.email;
		let outcome: string;
		if (cancel) outcome = `Cancelled by ${who}: \`${h.toolName}\` was not run.`;
		else {
			const notify = ACTIONS[action.action_id as keyof typeof ACTIONS];
			const result = await runHeldTool(ctx, h.toolName, h.input, notify);
			outcome = result.ok
				? `Done by ${who}: \`${h.toolName}\` ${notify ? 'published and subscribers notified' : 'published without notifying subscribers'}.`
				: `\`${h.toolName}\` failed for ${who}: ${result.code}: ${result.message}`;
			console.log(
				`[slack] held call ${h.toolName} workspaceId=${link.workspace.id} notify=${notify} ok=${result.ok}`
			);
		}
		await finishSlackCall({ ...scope, outcome });
		if (ts) await slack.update({ channel, ts, text: outcome, blocks: [] });
		else await slack.postMessage({ channel, text: outcome });
	}

	return {
		// POST /slack/events
		async events(req: SlackRequest): Promise<SlackAnswer> {
			const refused = check(req);
			if (refused) return refused;
			let parsed;
			try {
				parsed = EventEnvelope.safeParse(JSON.parse(req.body));
			} catch {
				parsed = null;
			}
			if (!parsed?.success)
				return { status: 400, body: 'the body must be a Slack event envelope (JSON)' };
			const envelope = parsed.data;
			if (envelope.type === 'url_verification')
				return { status: 200, body: envelope.challenge ?? '', contentType: 'text/plain' };
			// Slack retries when we were slow; we answered at once, so a retry is a duplicate.
			if (req.header('x-slack-retry-num')) return { status: 200, body: '' };
			const e = envelope.event;
			if (envelope.type !== 'event_callback' || !e || !envelope.team_id)
				return { status: 200, body: '' };
			const now = Date.now();
			sweep(now);
			if (envelope.event_id) {
				if (seenEvents.has(envelope.event_id)) return { status: 200, body: '' };
				seenEvents.set(envelope.event_id, now + PENDING_TTL_MS);
			}
			const direct = e.type === 'message' && e.channel_type === 'im';
			const mine = e.type === 'app_mention' || direct;
			if (mine && !e.bot_id && !e.subtype && e.user && e.channel && e.ts) {
				const event = {
					user: e.user,
					text: e.text ?? '',
					channel: e.channel,
					ts: e.ts,
					thread_ts: e.thread_ts
				};
				const teamId = envelope.team_id;
				background('event', () => answer(teamId, event));
			}
			return { status: 200, body: '' };
		},

		// POST /slack/interactions (form field `payload`)
		async interactions(req: SlackRequest): Promise<SlackAnswer> {
			const refused = check(req);
			if (refused) return refused;
			let parsed;
			try {
				parsed = ActionPayload.safeParse(
					JSON.parse(new URLSearchParams(req.body).get('payload') ?? '')
				);
			} catch {
				parsed = null;
			}
			if (!parsed?.success) return { status: 200, body: '' }; // not a button of ours
			const payload = parsed.data;
			background('interaction', () => act(payload));
			return { status: 200, body: '' };
		},

		// Resolves once the background work started so far has finished (tests, shutdown).
		async idle(): Promise<void> {
			while (running.size) await Promise.all([...running]);
		}
	};
}

// The model sees a thread's earlier messages: the last THREAD_MESSAGES, at most THREAD_CHARS in
// all (oldest dropped first); the bot's own as assistant turns, others' as "Name: text".
export const THREAD_MESSAGES = 20;
export const THREAD_CHARS = 8000;
type Turn = { role: 'user' | 'assistant'; content: string };

async function threadContext(
	slack: SlackClient,
	names: Profiles,
	link: SlackTeamLink,
	channel: string,
	threadTs: string,
	ts: string
): Promise<Turn[]> {
	try {
		const messages = (await slack.replies({ channel, ts: threadTs, latest: ts, limit: 200 }))
			.filter((m) => m.ts !== ts && Number(m.ts) < Number(ts))
			.slice(-THREAD_MESSAGES);
		const turns: Turn[] = [];
		for (const m of messages) {
			const text = clean(m.text ?? '', link.botUserId);
			if (!text) continue;
			if (m.user === link.botUserId) turns.push({ role: 'assistant', content: text });
			else {
				const name = m.user ? (await names.profile(m.user)).name : (m.username ?? 'a bot');
				turns.push({ role: 'user', content: `${name}: ${text}`.slice(0, MAX_MESSAGE_CHARS) });
			}
		}
		let chars = turns.reduce((n, t) => n + t.content.length, 0);
		while (turns.length && chars > THREAD_CHARS) chars -= turns.shift()!.content.length;
		return turns;
	} catch (err) {
		console.error(
			`[slack] thread not read channel=${channel} thread=${threadTs}: ${err instanceof Error ? err.message : String(err)}; answering the message alone`
		);
		return [];
	}
}

// users.info once per Slack user per event (the asker's e-mail, the thread's names).
type Profiles = ReturnType<typeof profiles>;
function profiles(slack: SlackClient) {
	const seen = new Map<string, ReturnType<SlackClient['user']>>();
	return {
		profile(user: string) {
			let p = seen.get(user);
			if (!p) seen.set(user, (p = slack.user(user)));
			return p;
		}
	};
}

const clean = (text: string, botUserId: string) =>
	text.replaceAll(`<@${botUserId}>`, '').trim().slice(0, MAX_MESSAGE_CHARS);

// Slack reads &, < and > as markup (<!channel>, <@U…>): model text is shown, never obeyed.
const escape = (text: string) =>
	text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

const button = (text: string, action_id: string, value: string, style?: string) => ({
	type: 'button',
	text: { type: 'plain_text', text },
	action_id,
	value,
	...(style ? { style } : {})
});
