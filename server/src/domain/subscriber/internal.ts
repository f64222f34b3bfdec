import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PageSubscriber } from '@prisma/client';
import { orNotFound } from '../errors.ts';
import type { Limits } from '../limits.ts';
import type { Tx } from '../transaction.ts';
import type { SubscriberOutput } from './schemas.ts';

// Confirm tokens are random and stored only as a SHA-256 hash (`tokenHash`). Unsubscribe tokens
// are `<id>.<HMAC(AUTH_SECRET, id)>`: every mail can carry one without storing it anywhere.
export const newToken = () => randomBytes(32).toString('base64url');
export const hashSubscriberToken = (token: string) =>
	createHash('sha256').update(`page-subscriber|${token}`).digest('hex');

const unsubscribeMac = (secret: string, id: number) =>
	createHmac('sha256', secret).update(`page-subscriber-unsubscribe|${id}`).digest('base64url');

export const unsubscribeToken = (secret: string, id: number) =>
	`${id}.${unsubscribeMac(secret, id)}`;

export function readUnsubscribeToken(secret: string, token: string): number | null {
	const [idPart, mac] = token.split('.', 2);
	const id = Number(idPart);
	if (!Number.isSafeInteger(id) || id <= 0 || !mac) return null;
	const expected = Buffer.from(unsubscribeMac(secret, id));
	const given = Buffer.from(mac);
	return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

export const parseComponentIds = (raw: string): number[] => JSON.parse(raw) as number[];

// Empty filter = every component; an event without components reaches everyone.
export function matchesComponents(filter: number[], eventComponents: number[]): boolean {
	if (filter.length === 0 || eventComponents.length === 0) return true;
	return filter.some((id) => eventComponents.includes(id));
}

export function toSubscriberOutput(row: PageSubscriber): SubscriberOutput {
	return {
		id: row.id,
		pageId: row.pageId,
		type: row.webhookUrl ? 'webhook' : 'email',
		email: row.email,
		webhookUrl: row.webhookUrl,
		componentIds: parseComponentIds(row.componentIds),
		status: row.confirmedAt ? 'confirmed' : 'pending',
		createdAt: row.createdAt.toISOString()
	};
}

// Tenancy by query filter: another workspace's (or page's) subscriber is NOT_FOUND.
export async function getSubscriberInWorkspace(args: {
	tx: Tx;
	id: number;
	pageId: number;
	workspaceId: number;
}): Promise<PageSubscriber> {
	return orNotFound(
		'subscriber',
		args.id,
		args.tx.pageSubscriber.findFirst({
			where: {
				id: args.id,
				pageId: args.pageId,
				workspaceId: args.workspaceId,
				unsubscribedAt: null
			}
		})
	);
}

// Links in mail go to the page's custom domain when it has one the plan serves, else to its
// slug address (which always works).
export function pageBaseUrl(args: {
	statusPageUrl: string;
	slug: string;
	customDomain: string | null;
	limits: Pick<Limits, 'custom-domain'>;
}): string {
	if (args.customDomain && args.limits['custom-domain'])
		return `${new URL(args.statusPageUrl).protocol}//${args.customDomain}`;
	return `${args.statusPageUrl.replace(/\/$/, '')}/${args.slug}`;
}

export const unsubscribeUrl = (base: string, secret: string, id: number) =>
	`${base}/unsubscribe?token=${unsubscribeToken(secret, id)}`;
