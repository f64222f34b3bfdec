import { eastAsianWidth } from 'get-east-asian-width';
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

// Verdana 11px averages about 7 px a Latin character; a wide glyph (East Asian Wide or
// Fullwidth, UAX #11, from get-east-asian-width's Unicode tables) is a full em, 11 px;
// combining marks add nothing. Shields pads each side by 5 px.
export function textWidth(text: string): number {
	let px = 0;
	for (const ch of text) {
		const cp = ch.codePointAt(0) ?? 0;
		px += /\p{M}/u.test(ch) ? 0 : eastAsianWidth(cp) === 2 ? 11 : 7;
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
