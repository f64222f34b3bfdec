import { describe, expect, it } from 'vitest';
import { fill, htmlLang, MESSAGES, messagesFor, pickLocale } from './index.ts';

describe('locale switch', () => {
	const page = { locales: ['en', 'de', 'ja'], defaultLocale: 'en' };
	it('takes ?lang= first, then the cookie, then the default, only among the page locales', () => {
		expect(pickLocale({ ...page, query: 'de', cookie: 'ja' })).toBe('de');
		expect(pickLocale({ ...page, query: null, cookie: 'ja' })).toBe('ja');
		expect(pickLocale({ ...page, query: 'fr', cookie: null })).toBe('en');
		expect(pickLocale({ ...page, query: null, cookie: null })).toBe('en');
	});
	it('ships five languages with every key, and falls back to English', () => {
		const keys = (o: object): string[] =>
			Object.entries(o).flatMap(([k, v]) =>
				typeof v === 'object' ? keys(v).map((s) => `${k}.${s}`) : [k]
			);
		expect(Object.keys(MESSAGES).sort()).toEqual(['de', 'en', 'es', 'fr', 'ja']);
		for (const m of Object.values(MESSAGES))
			expect(keys(m).sort()).toEqual(keys(MESSAGES.en).sort());
		expect(messagesFor('de-AT').gate.unlock).toBe('Status anzeigen');
		expect(messagesFor('pt').gate.unlock).toBe('View status');
		expect(fill(messagesFor('ja').uptimeOf, { pct: '99.9%' })).toBe('稼働率 99.9%');
	});
});

describe('htmlLang', () => {
	it('is a language we ship, else English, and never markup', () => {
		expect(htmlLang('ja')).toBe('ja');
		expect(htmlLang('"><script>alert(1)</script>')).toBe('en');
		expect(htmlLang('constructor')).toBe('en');
	});
});
