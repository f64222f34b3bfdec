import { UnauthorizedError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { findPublicPage, type PublicDeps } from '../status-page/public/open-page.ts';
import { hashSubscriberToken } from './internal.ts';
import { CONFIRM_LINK_TTL_MS } from './subscribe.ts';
import { SubscriberTokenInput } from './schemas.ts';

// The confirmation link's POST (the GET page only shows a button, so scanners don't confirm).
// A pending link expires CONFIRM_LINK_TTL_MS after it was sent; confirming twice is harmless.
export async function confirmSubscription(args: {
	deps: PublicDeps;
	input: SubscriberTokenInput;
}): Promise<{ confirmed: true }> {
	const input = parseInput(SubscriberTokenInput, args.input);
	const { row } = await findPublicPage(args.deps.db, input.page);
	const now = args.deps.now?.() ?? new Date();
	const tokenHash = hashSubscriberToken(input.token);
	const found = await args.deps.db.pageSubscriber.findFirst({
		where: { tokenHash, pageId: row.id, unsubscribedAt: null },
		select: { id: true, confirmedAt: true, confirmSentAt: true }
	});
	if (!found) throw new UnauthorizedError('this link is invalid or was replaced by a newer one');
	if (found.confirmedAt) return { confirmed: true };
	const sentAt = found.confirmSentAt?.getTime() ?? 0;
	if (now.getTime() - sentAt > CONFIRM_LINK_TTL_MS)
		throw new UnauthorizedError('this link has expired: subscribe again for a new one');
	await args.deps.db.pageSubscriber.updateMany({
		where: { id: found.id, confirmedAt: null },
		data: { confirmedAt: now }
	});
	return { confirmed: true };
}
