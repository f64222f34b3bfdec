import type { MailMessage } from '../index.ts';
import { subscriberLang, subscriberMessages } from './subscriber-messages.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// What a subscriber is told, carried in the outbox payload (kinds `subscriber-email` and
// `subscriber-webhook`), so a retry sends what the publish call said even if the report changed.
export type SubscriberNotice = {
	event:
		| 'report-created'
		| 'report-updated'
		| 'report-resolved'
		| 'maintenance-scheduled'
		| 'maintenance-started'
		| 'maintenance-ended';
	at: string;
	page: { id: number; title: string; url: string };
	title: string;
	status: string | null;
	message: string;
	url: string; // the report or the page
	reportId: number | null;
	updateId: number | null;
	maintenanceId: number | null;
	from: string | null;
	to: string | null;
	componentIds: number[];
};

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

// RFC 2369 + RFC 8058: mail clients offer a one-click unsubscribe that POSTs to the link.
function unsubscribeHeaders(url: string, mailto?: string): Record<string, string> {
	return {
		'List-Unsubscribe': mailto ? `<${url}>, <mailto:${mailto}>` : `<${url}>`,
		'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click'
	};
}

function layout(args: {
	paragraphs: string[];
	action?: { href: string; label: string };
	unsubscribeUrl: string;
	unsubscribeLabel: string;
	lang: string;
}) {
	const body = args.paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`);
	const action = args.action
		? `<p><a href="${escapeHtml(args.action.href)}">${escapeHtml(args.action.label)}</a></p>`
		: '';
	return `<!doctype html><html lang="${escapeHtml(args.lang)}"><body style="font-family:sans-serif;max-width:560px">${body.join('')}${action}<hr><p style="font-size:12px;color:#666"><a href="${escapeHtml(args.unsubscribeUrl)}">${escapeHtml(args.unsubscribeLabel)}</a></p></body></html>`;
}

// `locale`: the page's default_locale (subscriber-messages.ts).
export function subscriberNoticeMail(args: {
	to: string;
	notice: SubscriberNotice;
	unsubscribeUrl: string;
	unsubscribeMailto?: string;
	locale?: string;
}): MailMessage {
	const { notice } = args;
	const m = subscriberMessages(args.locale);
	const headline = m.headline[notice.event];
	const status = notice.status ? (m.status[notice.status] ?? notice.status) : null;
	const lines = [
		m.line(headline, notice.page.title, notice.title),
		...(status ? [`${m.statusLine}: ${status}`] : []),
		...(notice.from && notice.to ? [m.window(when(notice.from), when(notice.to))] : []),
		...(notice.message ? [notice.message] : [])
	];
	return {
		to: args.to,
		subject: m.subject(headline, notice.page.title, notice.title),
		text: `${lines.join('\n\n')}\n\n${m.details}: ${notice.url}\n\n--\n${m.unsubscribe}: ${args.unsubscribeUrl}\n`,
		html: layout({
			paragraphs: lines,
			action: { href: notice.url, label: m.view },
			unsubscribeUrl: args.unsubscribeUrl,
			unsubscribeLabel: m.unsubscribe,
			lang: subscriberLang(args.locale)
		}),
		headers: unsubscribeHeaders(args.unsubscribeUrl, args.unsubscribeMailto),
		secretLinks: true
	};
}

export function subscriberConfirmMail(args: {
	to: string;
	pageTitle: string;
	confirmUrl: string;
	unsubscribeUrl: string;
	locale?: string;
}): MailMessage {
	const m = subscriberMessages(args.locale);
	const ask = m.confirmAsk(args.pageTitle);
	return {
		to: args.to,
		subject: m.confirmSubject(args.pageTitle),
		text: `${ask}\n\n${args.confirmUrl}\n\n${m.confirmIgnore}\n`,
		html: layout({
			paragraphs: [ask, m.confirmIgnore],
			action: { href: args.confirmUrl, label: m.confirmButton },
			unsubscribeUrl: args.unsubscribeUrl,
			unsubscribeLabel: m.unsubscribe,
			lang: subscriberLang(args.locale)
		}),
		headers: unsubscribeHeaders(args.unsubscribeUrl),
		secretLinks: true
	};
}
