import { describe, expect, it } from 'vitest';
import { langCookie, parseCookies, readerFactsFrom } from './reader.ts';

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
