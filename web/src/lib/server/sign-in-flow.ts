import type { Cookies } from '@sveltejs/kit';
import { SignInFlow } from '@upstate/server';

// The provider sign-in in progress (state, PKCE verifier, nonce, next) between the sign-in page
// and the callback: httpOnly, only sent to the callback path, gone after 10 minutes or one use.
// SameSite lax: the provider's redirect back is a top-level GET, which lax cookies accompany.
const NAME = 'upstate_signin_flow';
const PATH = '/api/auth/callback';

export function setSignInFlow(cookies: Cookies, flow: SignInFlow, dashboardUrl: string): void {
	cookies.set(NAME, Buffer.from(JSON.stringify(flow)).toString('base64url'), {
		path: PATH,
		httpOnly: true,
		sameSite: 'lax',
		secure: dashboardUrl.startsWith('https:'),
		maxAge: 600
	});
}

export function takeSignInFlow(cookies: Cookies): SignInFlow | null {
	const raw = cookies.get(NAME);
	cookies.delete(NAME, { path: PATH });
	if (!raw) return null;
	try {
		return SignInFlow.parse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
	} catch {
		return null;
	}
}

// A `next` path of this dashboard only (never //host or an absolute URL).
export const safeNext = (next: string | null): string | undefined =>
	next && /^\/(?![/\\])/.test(next) ? next : undefined;
