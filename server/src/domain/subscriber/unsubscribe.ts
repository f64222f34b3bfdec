import { UnauthorizedError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { findPublicPage, type PublicDeps } from '../status-page/public/open-page.ts';
import { readUnsubscribeToken } from './internal.ts';
import { SubscriberTokenInput } from './schemas.ts';

// One-click unsubscribe (RFC 8058 POST, or the button on the link's page). Idempotent: a second
// click, or a subscriber already removed, answers the same.
export async function unsubscribeFromStatusPage(args: {
	deps: PublicDeps;
	input: SubscriberTokenInput;
}): Promise<{ unsubscribed: true }> {
	const input = parseInput(SubscriberTokenInput, args.input);
	const { row } = await findPublicPage(args.deps.db, input.page);
	const id = readUnsubscribeToken(args.deps.secret, input.token);
	if (id === null) throw new UnauthorizedError('this unsubscribe link is invalid');
	const now = args.deps.now?.() ?? new Date();
	await args.deps.db.pageSubscriber.updateMany({
		where: { id, pageId: row.id, unsubscribedAt: null },
		data: { unsubscribedAt: now }
	});
	return { unsubscribed: true };
}
