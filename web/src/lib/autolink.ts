// A mail's text as plain parts and http(s) links, for rendering without any HTML from the mail.
export type TextPart = { text: string; href?: string };

const URL_PATTERN = /https?:\/\/[^\s<>"]+/g;

export function autolink(text: string): TextPart[] {
	const parts: TextPart[] = [];
	let last = 0;
	for (const m of text.matchAll(URL_PATTERN)) {
		// A sentence's closing punctuation is not part of the link.
		const url = m[0].replace(/[.,;:!?)\]]+$/, '');
		if (m.index > last) parts.push({ text: text.slice(last, m.index) });
		parts.push({ text: url, href: url });
		last = m.index + url.length;
	}
	if (last < text.length) parts.push({ text: text.slice(last) });
	return parts;
}
