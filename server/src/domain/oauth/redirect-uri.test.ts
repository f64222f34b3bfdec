import { describe, expect, it } from 'vitest';
import { matchesRedirectUri } from './redirect-uri.ts';

describe('matchesRedirectUri', () => {
	it('matches exactly, and loopback URIs on everything but the port (RFC 8252)', () => {
		const registered = ['http://127.0.0.1/callback', 'https://claude.ai/cb', 'cursor://x/cb'];
		expect(matchesRedirectUri('http://127.0.0.1:51234/callback', registered)).toBe(true);
		expect(matchesRedirectUri('http://127.0.0.1/callback', registered)).toBe(true);
		expect(matchesRedirectUri('http://127.0.0.1:5/other', registered)).toBe(false);
		expect(matchesRedirectUri('http://localhost:5/callback', registered)).toBe(false);
		expect(matchesRedirectUri('https://claude.ai:444/cb', registered)).toBe(false);
		expect(matchesRedirectUri('https://claude.ai/cb?x=1', registered)).toBe(false);
		expect(matchesRedirectUri('cursor://x/cb', registered)).toBe(true);
	});
});
