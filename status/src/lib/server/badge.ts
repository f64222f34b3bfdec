import type { ComponentState } from '../page-status.ts';
import { escapeXml } from './xml.ts';

// Shields-style flat badge: grey label, coloured state. The colours are the theme's status
// tokens in sRGB (an SVG served alone cannot read the page's CSS variables).
export const BADGE_COLOR: Record<ComponentState, string> = {
	operational: '#17843f',
	degraded_performance: '#a06604',
	partial_outage: '#be5300',
	major_outage: '#cc2827',
	under_maintenance: '#0871c1',
	unknown: '#6b6f75'
};

// East Asian Wide and Fullwidth ranges (UAX #11): Hangul, CJK, kana, full-width forms, emoji.
const WIDE: [number, number][] = [
	[0x1100, 0x115f],
	[0x2e80, 0x303e],
	[0x3041, 0x33ff],
	[0x3400, 0x4dbf],
	[0x4e00, 0x9fff],
	[0xa000, 0xa4cf],
	[0xac00, 0xd7a3],
	[0xf900, 0xfaff],
	[0xfe30, 0xfe4f],
	[0xff00, 0xff60],
	[0xffe0, 0xffe6],
	[0x1f300, 0x1f64f],
	[0x1f900, 0x1f9ff],
	[0x20000, 0x3fffd]
];
const isWide = (cp: number) => WIDE.some(([lo, hi]) => cp >= lo && cp <= hi);

// Verdana 11px averages about 7 px a Latin character; a wide glyph is a full em, 11 px;
// combining marks add nothing. Shields pads each side by 5 px.
export function textWidth(text: string): number {
	let px = 0;
	for (const ch of text) {
		const cp = ch.codePointAt(0) ?? 0;
		px += /\p{M}/u.test(ch) ? 0 : isWide(cp) ? 11 : 7;
	}
	return Math.round(px + 10);
}

export function badgeSvg(args: { label: string; message: string; state: ComponentState }): string {
	const { label, message } = args;
	const lw = textWidth(label);
	const mw = textWidth(message);
	const total = lw + mw;
	const color = BADGE_COLOR[args.state];
	const title = `${label}: ${message}`;
	return (
		`<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${escapeXml(title)}">` +
		`<title>${escapeXml(title)}</title>` +
		`<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
		`<clipPath id="r"><rect width="${total}" height="20" rx="3" fill="#fff"/></clipPath>` +
		`<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${color}"/>` +
		`<rect width="${total}" height="20" fill="url(#s)"/></g>` +
		`<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">` +
		`<text x="${lw / 2}" y="14">${escapeXml(label)}</text><text x="${lw + mw / 2}" y="14">${escapeXml(message)}</text></g></svg>`
	);
}
