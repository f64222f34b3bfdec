import type { MailMessage } from '../index.ts';

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

const HEADLINE: Record<SubscriberNotice['event'], string> = {
	'report-created': 'New incident',
	'report-updated': 'Incident update',
	'report-resolved': 'Resolved',
	'maintenance-scheduled': 'Scheduled maintenance',
	'maintenance-started': 'Maintenance started',
	'maintenance-ended': 'Maintenance ended'
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
}) {
	const body = args.paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`);
	const action = args.action
		? `<p><a href="${escapeHtml(args.action.href)}">${escapeHtml(args.action.label)}</a></p>`
		: '';
	return `<!doctype html><html><body style="font-family:sans-serif;max-width:560px">${body.join('')}${action}<hr><p style="font-size:12px;color:#666"><a href="${escapeHtml(args.unsubscribeUrl)}">Unsubscribe</a></p></body></html>`;
}

export function subscriberNoticeMail(args: {
	to: string;
	notice: SubscriberNotice;
	unsubscribeUrl: string;
	unsubscribeMailto?: string;
}): MailMessage {
	const { notice } = args;
	const headline = HEADLINE[notice.event];
	const lines = [
		`${headline} on ${notice.page.title}: ${notice.title}`,
		...(notice.status ? [`Status: ${notice.status}`] : []),
		...(notice.from && notice.to ? [`Window: ${when(notice.from)} to ${when(notice.to)}`] : []),
		...(notice.message ? [notice.message] : [])
	];
	return {
		to: args.to,
		subject: `[${notice.page.title}] ${headline}: ${notice.title}`,
		text: `${lines.join('\n\n')}\n\nDetails: ${notice.url}\n\n--\nUnsubscribe: ${args.unsubscribeUrl}\n`,
		html: layout({
			paragraphs: lines,
			action: { href: notice.url, label: 'View on the status page' },
			unsubscribeUrl: args.unsubscribeUrl
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
}): MailMessage {
	const ask = `Confirm that you want updates from ${args.pageTitle} by e-mail.`;
	const ignore = 'If you did not ask for this, ignore this mail: nothing will be sent.';
	return {
		to: args.to,
		subject: `Confirm your subscription to ${args.pageTitle}`,
		text: `${ask}\n\n${args.confirmUrl}\n\n${ignore}\n`,
		html: layout({
			paragraphs: [ask, ignore],
			action: { href: args.confirmUrl, label: 'Confirm subscription' },
			unsubscribeUrl: args.unsubscribeUrl
		}),
		headers: unsubscribeHeaders(args.unsubscribeUrl),
		secretLinks: true
	};
}
