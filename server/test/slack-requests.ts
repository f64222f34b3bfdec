import type { SlackAgent } from '../src/slack/agent.ts';
import { slackSignature } from '../src/slack/signature.ts';
import type { fakeSlack } from './fake-slack.ts';

// What Slack sends the agent, signed as Slack signs it, for the tests that drive the agent over
// HTTP: events, mentions, button clicks; and what the agent posted back (`posted`, `heldId`).
// `rig` is read at call time, so the helpers can be made before `beforeAll` starts the servers.

export const SLACK_SIGNING_SECRET = 'slack-signing-secret';

type Rig = { base: string; agent: SlackAgent; slack: Awaited<ReturnType<typeof fakeSlack>> };

export function slackRequests(rig: () => Rig) {
	const signed = (
		body: string,
		at = Math.floor(Date.now() / 1000),
		secret = SLACK_SIGNING_SECRET
	): Record<string, string> => ({
		'x-slack-request-timestamp': String(at),
		'x-slack-signature': slackSignature(secret, String(at), body)
	});
	const post = (path: string, body: string, headers: Record<string, string>) =>
		fetch(`${rig().base}${path}`, { method: 'POST', body, headers });
	const event = (e: Record<string, unknown>, team = 'T_A', id = `Ev${Math.random()}`) =>
		JSON.stringify({ type: 'event_callback', team_id: team, event_id: id, event: e });
	const mention = (text: string, user = 'U_ALICE', ts = '100.1') =>
		event({ type: 'app_mention', user, text: `<@UBOT_A> ${text}`, channel: 'C1', ts });
	// Posts, then waits until the agent has finished what the request started.
	async function sendEvent(body: string, headers = signed(body)) {
		const res = await post('/slack/events', body, {
			'content-type': 'application/json',
			...headers
		});
		await rig().agent.idle();
		return res;
	}
	function clickBody(action: string, value: string, user = 'U_ALICE', team = 'T_A') {
		const payload = JSON.stringify({
			type: 'block_actions',
			team: { id: team },
			user: { id: user },
			channel: { id: 'C1' },
			container: { type: 'message', message_ts: 'held-ts', channel_id: 'C1' },
			actions: [{ action_id: action, value }]
		});
		return new URLSearchParams({ payload }).toString();
	}
	async function click(action: string, value: string, user = 'U_ALICE', team = 'T_A') {
		const body = clickBody(action, value, user, team);
		const res = await post('/slack/interactions', body, {
			'content-type': 'application/x-www-form-urlencoded',
			...signed(body)
		});
		await rig().agent.idle();
		return res;
	}
	const posted = () => rig().slack.calls.filter((c) => c.method === 'chat.postMessage');
	// The held call's id, from the buttons of the message that offered them.
	const heldId = () => {
		const blocks = posted().find((c) => c.body.blocks)?.body.blocks as Array<{
			elements?: Array<{ action_id: string; value: string }>;
		}>;
		return blocks[1].elements![0].value;
	};
	return { signed, post, event, mention, sendEvent, clickBody, click, posted, heldId };
}
