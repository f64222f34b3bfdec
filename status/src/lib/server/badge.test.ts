import { describe, expect, it } from 'vitest';
import { ja } from '../i18n/ja.ts';
import { badgeSvg, textWidth } from './badge.ts';

const widthOf = (svg: string) => Number(/^<svg [^>]*width="(\d+)"/.exec(svg)?.[1]);

describe('badge width', () => {
	it('keeps 7 px a Latin character and gives a full-width character 11 px', () => {
		expect(textWidth('Operational')).toBe(11 * 7 + 10);
		expect(textWidth('正常')).toBe(2 * 11 + 10);
		expect(textWidth('ＡＢ')).toBe(2 * 11 + 10);
		expect(textWidth('API 障害')).toBe(4 * 7 + 2 * 11 + 10);
		expect(textWidth('e\u0301')).toBe(7 + 10);
		// Emoji with an emoji presentation are wide too (UAX #11), across the whole of Unicode.
		expect(textWidth('Partial outage 🚧')).toBe(15 * 7 + 11 + 10);
		expect(textWidth('✅')).toBe(11 + 10);
	});

	it('fits a Japanese badge: every wide glyph gets a full em at 11 px', () => {
		const label = 'すべてのシステムが正常に稼働しています';
		const message = ja.state.degraded_performance;
		const svg = badgeSvg({ label, message, state: 'degraded_performance' });
		expect(widthOf(svg)).toBe(label.length * 11 + 10 + message.length * 11 + 10);
		expect(svg).toContain(`<rect width="${label.length * 11 + 10}" height="20" fill="#555"/>`);
	});
});
