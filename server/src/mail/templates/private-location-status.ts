import type { MailMessage } from '../index.ts';

export type LocationTransition = 'toError' | 'recovered' | 'firstReport';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const formatSeen = (at: Date | null) =>
	at ? `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'never';

const WORDING: Record<LocationTransition, { subject: string; what: string; advice: string }> = {
	toError: {
		subject: 'stopped reporting',
		what: 'has not reported for more than 15 minutes; its status changed from active to error. Monitors that run only from it are not being checked.',
		advice:
			'Check that its probe is running and that SERVICE_INGEST_URL points at the ingest server (port 8081).'
	},
	recovered: {
		subject: 'is reporting again',
		what: 'is reporting again; its status changed from error to active.',
		advice: 'No action is needed.'
	},
	firstReport: {
		subject: 'started reporting',
		what: 'sent its first report; its status changed from unknown to active.',
		advice: 'No action is needed.'
	}
};

// One mail per member for a private location status change (spec 3.3 and 6).
export function privateLocationStatusMail(args: {
	to: string;
	transition: LocationTransition;
	locationName: string;
	workspaceName: string;
	lastSeenAt: Date | null;
	link: string;
}): MailMessage {
	const w = WORDING[args.transition];
	const sentence = `Private location "${args.locationName}" in workspace "${args.workspaceName}" ${w.what}`;
	const seen = formatSeen(args.lastSeenAt);
	return {
		to: args.to,
		subject: `Private location "${args.locationName}" ${w.subject}`,
		text: `${sentence}\n\nLast seen: ${seen}\nLocation: ${args.link}\n\n${w.advice}\n`,
		html: `<p>${escapeHtml(sentence)}</p><p>Last seen: ${seen}<br><a href="${escapeHtml(args.link)}">Open the location in the dashboard</a></p><p>${escapeHtml(w.advice)}</p>`
	};
}
