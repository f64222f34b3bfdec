import { createHash, randomBytes } from 'node:crypto';
import { LimitExceededError, ValidationError } from '../../errors.ts';
import { parseInput } from '../../parse.ts';
import { findPublicPage, type PublicDeps } from './open-page.ts';
import { RequestAccessInput } from './schemas.ts';

export const ACCESS_LINK_TTL_MS = 15 * 60 * 1000;
const MAX_OPEN_LINKS = 5;

export const hashAccessToken = (token: string) =>
	createHash('sha256').update(`status-page-access|${token}`).digest('hex');

// The e-mail-domain gate: a reader whose address is at one of `auth_email_domains` (exact
// domain, case-insensitive) gets a one-time link valid for 15 minutes.
export async function requestStatusPageAccess(args: {
	deps: PublicDeps;
	input: RequestAccessInput;
}): Promise<{ sent: true }> {
	const input = parseInput(RequestAccessInput, args.input);
	const { db } = args.deps;
	const { row, viaDomain } = await findPublicPage(db, input.page);
	const email = input.email.toLowerCase();
	const domains = (JSON.parse(row.authEmailDomains) as string[]).map((d) => d.toLowerCase());
	if (row.accessType !== 'email-domain' || !domains.includes(email.split('@')[1])) {
		throw new ValidationError('email: this address cannot open this page', [
			{ path: 'email', message: 'this address cannot open this page' }
		]);
	}
	const now = args.deps.now?.() ?? new Date();
	const open = await db.statusPageAccessToken.count({
		where: { pageId: row.id, email, usedAt: null, expiresAt: { gt: now } }
	});
	if (open >= MAX_OPEN_LINKS)
		throw new LimitExceededError(
			'access-links',
			MAX_OPEN_LINKS,
			'too many links requested: use the latest one'
		);
	const token = randomBytes(32).toString('base64url');
	await db.statusPageAccessToken.create({
		data: {
			pageId: row.id,
			email,
			tokenHash: hashAccessToken(token),
			expiresAt: new Date(now.getTime() + ACCESS_LINK_TTL_MS)
		}
	});
	// On its custom domain the pass cookie must be set there, so the link goes there too.
	const base = viaDomain
		? `${new URL(args.deps.statusPageUrl).protocol}//${row.customDomain}`
		: `${args.deps.statusPageUrl.replace(/\/$/, '')}/${row.slug}`;
	const link = `${base}/access?token=${token}`;
	await args.deps.mailer.send({
		to: email,
		subject: `Your link to ${row.title}`,
		text: `Open ${row.title} with this link (valid for 15 minutes, once):\n\n${link}\n\nIf you did not ask for it, ignore this mail.`,
		workspaceId: row.workspaceId
	});
	return { sent: true };
}
