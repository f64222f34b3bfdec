import { createHmac, timingSafeEqual } from 'node:crypto';

// Slack's request signing (v0): X-Slack-Signature = "v0=" + hex HMAC-SHA256 of
// "v0:{X-Slack-Request-Timestamp}:{raw body}" under the app's signing secret.
export const MAX_SKEW_SECONDS = 5 * 60;

export function slackSignature(secret: string, timestamp: string, body: string): string {
	return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export function verifySlackSignature(args: {
	secret: string;
	timestamp: string | null;
	signature: string | null;
	body: string;
	nowSeconds?: number;
}): boolean {
	const { timestamp, signature } = args;
	if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
	const now = args.nowSeconds ?? Math.floor(Date.now() / 1000);
	if (Math.abs(now - Number(timestamp)) > MAX_SKEW_SECONDS) return false;
	const expected = Buffer.from(slackSignature(args.secret, timestamp, args.body));
	const given = Buffer.from(signature);
	return given.length === expected.length && timingSafeEqual(given, expected);
}
