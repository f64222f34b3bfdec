import { Prisma } from '@prisma/client';
import { subscriberConfirmMail } from '../../mail/templates/subscriber.ts';
import { LimitExceededError, UnauthorizedError, ValidationError } from '../errors.ts';
import { requireFeature } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { clientAddress } from '../status-page/public/client-address.ts';
import { openPage, type PublicDeps } from '../status-page/public/open-page.ts';
import { checkComponentsOnPage } from '../status-report/internal.ts';
import { hashSubscriberToken, newToken, pageBaseUrl, unsubscribeUrl } from './internal.ts';
import { SubscribeInput } from './schemas.ts';
import { PER_CLIENT_PER_HOUR } from './send-budget.ts';

// A pending address gets at most one confirmation mail per this interval.
export const CONFIRM_RESEND_MS = 10 * 60 * 1000;
// A confirmation link works for this long after it was sent.
export const CONFIRM_LINK_TTL_MS = 7 * 24 * 3600 * 1000;

// Double opt-in from the status page. The answer is the same whether the address is new,
// pending or confirmed (no way to learn who subscribed), and re-sends are rate-limited.
export async function subscribeToStatusPage(args: {
	deps: PublicDeps;
	input: SubscribeInput;
}): Promise<{ ok: true }> {
	const input = parseInput(SubscribeInput, args.input);
	const { db } = args.deps;
	const opened = await openPage({ deps: args.deps, locator: input.page, reader: input.reader });
	if (opened.access !== 'granted') throw new UnauthorizedError('open the page first');
	requireFeature(opened.limits, 'status-subscribers');
	const { row: page, now } = opened;
	const budget = args.deps.subscribeBudget;
	const client =
		clientAddress({ ...input.reader, trustedProxyHops: args.deps.trustedProxyHops }) ?? 'unknown';
	if (budget && !budget.clients.take(client, now.getTime()))
		throw new LimitExceededError(
			'subscribe-requests',
			PER_CLIENT_PER_HOUR,
			'too many subscriptions from your address: try again in an hour'
		);
	const componentIds = [...new Set(input.componentIds)].sort((a, b) => a - b);
	await checkComponentsOnPage(db, page.id, componentIds);
	const email = input.email.toLowerCase();
	// An email-domain page is read by addresses at its domains: its notices go to no others.
	const domains = (JSON.parse(page.authEmailDomains) as string[]).map((d) => d.toLowerCase());
	if (page.accessType === 'email-domain' && !domains.includes(email.split('@')[1]))
		throw new ValidationError('email: this page only takes addresses at its allowed domains', [
			{ path: 'email', message: 'this page only takes addresses at its allowed domains' }
		]);
	const existing = await db.pageSubscriber.findUnique({
		where: { pageId_email: { pageId: page.id, email } }
	});
	if (existing?.confirmedAt && !existing.unsubscribedAt) return { ok: true };
	if (
		existing?.confirmSentAt &&
		now.getTime() - existing.confirmSentAt.getTime() < CONFIRM_RESEND_MS
	)
		return { ok: true };
	// Answered like any other: the address's budget is nobody else's business.
	if (budget && !budget.addresses.take(email, now.getTime())) return { ok: true };
	const token = newToken();
	const fields = {
		tokenHash: hashSubscriberToken(token),
		componentIds: JSON.stringify(componentIds),
		confirmSentAt: now
	};
	let id: number;
	if (existing) {
		// Conditional: of two overlapping requests only one re-sends.
		const claimed = await db.pageSubscriber.updateMany({
			where: { id: existing.id, confirmSentAt: existing.confirmSentAt },
			data: { ...fields, confirmedAt: null, unsubscribedAt: null }
		});
		if (claimed.count !== 1) return { ok: true };
		id = existing.id;
	} else {
		try {
			({ id } = await db.pageSubscriber.create({
				data: { workspaceId: page.workspaceId, pageId: page.id, email, ...fields },
				select: { id: true }
			}));
		} catch (err) {
			if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002')
				return { ok: true };
			throw err;
		}
	}
	const base = pageBaseUrl({
		statusPageUrl: args.deps.statusPageUrl,
		slug: page.slug,
		customDomain: page.customDomain,
		limits: opened.limits
	});
	// Not awaited: a new address must not answer slower than a known one (that would tell who
	// subscribed). A failed send frees the address for an immediate retry.
	const mail = subscriberConfirmMail({
		to: email,
		pageTitle: page.title,
		confirmUrl: `${base}/subscribe/confirm?token=${token}`,
		unsubscribeUrl: unsubscribeUrl(base, args.deps.secret, id),
		locale: page.defaultLocale
	});
	void args.deps.mailer
		.send({ ...mail, workspaceId: page.workspaceId })
		.catch(async (err: Error) => {
			console.warn(
				`[subscriber] confirmation not sent pageId=${page.id} subscriberId=${id} error=${JSON.stringify(err.message)}`
			);
			await db.pageSubscriber
				.updateMany({ where: { id, confirmSentAt: now }, data: { confirmSentAt: null } })
				.catch(() => {});
		});
	return { ok: true };
}
