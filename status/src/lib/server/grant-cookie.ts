import type { Cookies } from '@sveltejs/kit';

// The pass issued by the unlock/verify verbs: httpOnly, whole site (reports and history too).
export function setGrantCookie(
	cookies: Cookies,
	url: URL,
	cookie: { name: string; value: string; maxAge: number }
): void {
	cookies.set(cookie.name, cookie.value, {
		path: '/',
		httpOnly: true,
		sameSite: 'lax',
		secure: url.protocol === 'https:',
		maxAge: cookie.maxAge
	});
}
