import { describe, expect, it } from 'vitest';
import { langCookie, parseCookies, readerFactsFrom, safeNext } from './reader.ts';

// The render cache's key and every view's render read the reader's cookies through these, so
// a pass the key sees is the pass the render sees.
describe('reader cookies', () => {
	it('keeps the first of a repeated name, unquotes and URI-decodes values', () => {
		const cookies = parseCookies('a=1; b="two"; a=3; c=x%3Dy; d=%E0%A4%A; =nameless; e');
		expect([...cookies]).toEqual([
			['a', '1'],
			['b', 'two'],
			['c', 'x=y'],
			['d', '%E0%A4%A']
		]);
		expect(parseCookies(null).size).toBe(0);
	});

	it('offers only page passes to the gate, at most 20, with the raw address facts', () => {
		const passes = Array.from({ length: 25 }, (_, i) => `upstate_page_${i}=p${i}`);
		const facts = readerFactsFrom({
			clientAddress: '127.0.0.1',
			forwardedFor: '10.0.0.1',
			cookie: ['upstate_lang=de', 'session=s', ...passes].join('; ')
		});
		expect(facts.socketAddress).toBe('127.0.0.1');
		expect(facts.forwardedFor).toBe('10.0.0.1');
		expect(facts.grants).toEqual(Array.from({ length: 20 }, (_, i) => `p${i}`));
		expect(langCookie('x=1; upstate_lang=fr')).toBe('fr');
		expect(langCookie(null)).toBeNull();
	});
});

describe('safeNext', () => {
	const origin = new URL('https://status.acme.test/acme');
	const next = (value: string) => safeNext(value, '/acme', origin);

	it('keeps a path on the same origin', () => {
		expect(next('/acme/history?x=1#top')).toBe('/acme/history?x=1#top');
		expect(next('/')).toBe('/');
	});

	it('refuses other origins however they are spelled', () => {
		for (const value of [
			'//evil.example',
			'/\\evil.example',
			'/\t/evil.example',
			'/\n/evil.example',
			'/\u0000/evil.example',
			'/a/..//evil.example',
			'https://evil.example/',
			'javascript:alert(1)',
			'acme'
		])
			expect(next(value), JSON.stringify(value)).toBe('/acme');
	});
});
