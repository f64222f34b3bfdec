import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../mail/index.ts';
import { LimitExceededError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { RequestMagicLinkInput } from './schemas.ts';

export const MAGIC_LINK_TTL_MS = 15 * 60 * 1000;
const MAX_OPEN_LINKS = 5;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

// Mails a single-use sign-in link valid for 15 minutes; only the token's hash is stored.
export async function requestMagicLink(args: {
	db: Db;
	mailer: Mailer;
	dashboardUrl: string;
	input: RequestMagicLinkInput;
}): Promise<{ sent: true }> {
	const { email, next } = parseInput(RequestMagicLinkInput, args.input);
	const open = await args.db.magicLinkToken.count({
		where: { email, usedAt: null, expiresAt: { gt: new Date() } }
	});
	if (open >= MAX_OPEN_LINKS) {
		throw new LimitExceededError(
			'magic-links',
			MAX_OPEN_LINKS,
			'too many sign-in links requested: use the latest one or wait 15 minutes'
		);
	}
	const token = randomBytes(32).toString('base64url');
	await args.db.magicLinkToken.create({
		data: {
			email,
			tokenHash: hashToken(token),
			expiresAt: new Date(Date.now() + MAGIC_LINK_TTL_MS)
		}
	});
	const link = `${args.dashboardUrl.replace(/\/$/, '')}/auth/verify?token=${token}${next ? `&next=${encodeURIComponent(next)}` : ''}`;
	await args.mailer.send({
		to: email,
		subject: 'Sign in to Upstate',
		text: `Sign in to Upstate with this link (valid for 15 minutes, once):\n\n${link}\n\nIf you did not ask for it, ignore this mail.`,
		html: `<p>Sign in to Upstate with this link (valid for 15 minutes, once):</p><p><a href="${link}">Sign in to Upstate</a></p><p>If you did not ask for it, ignore this mail.</p>`
	});
	return { sent: true };
}
