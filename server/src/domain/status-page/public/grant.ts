import { createHmac, timingSafeEqual } from 'node:crypto';
import type { StatusPage } from '@prisma/client';

// The reader's pass for a protected page: `<expiry>.<hmac>` in a per-page cookie, signed with
// AUTH_SECRET. The signature covers the page's current secret material (password hash or
// allowed domains), so changing the password or the domains revokes every pass at once.
export const GRANT_TTL_S = 7 * 24 * 3600;

export const grantCookieName = (pageId: number) => `upstate_page_${pageId}`;

type GrantPage = Pick<StatusPage, 'id' | 'accessType' | 'passwordHash' | 'authEmailDomains'>;

function sign(secret: string, page: GrantPage, expiresAt: number): string {
	const material = page.accessType === 'password' ? page.passwordHash : page.authEmailDomains;
	return createHmac('sha256', secret)
		.update(`status-page-grant|${page.id}|${page.accessType}|${expiresAt}|${material ?? ''}`)
		.digest('base64url');
}

export function issueGrant(args: { secret: string; page: GrantPage; now: Date }): {
	name: string;
	value: string;
	maxAge: number;
} {
	const expiresAt = Math.floor(args.now.getTime() / 1000) + GRANT_TTL_S;
	return {
		name: grantCookieName(args.page.id),
		value: `${expiresAt}.${sign(args.secret, args.page, expiresAt)}`,
		maxAge: GRANT_TTL_S
	};
}

export function isGrantValid(args: {
	secret: string;
	page: GrantPage;
	value: string | null;
	now: Date;
}): boolean {
	const [exp, mac] = (args.value ?? '').split('.');
	const expiresAt = Number(exp);
	if (!mac || !Number.isInteger(expiresAt) || expiresAt * 1000 <= args.now.getTime()) return false;
	const expected = Buffer.from(sign(args.secret, args.page, expiresAt));
	const actual = Buffer.from(mac);
	return actual.length === expected.length && timingSafeEqual(actual, expected);
}
