import { escapeHtml, summaryOf, titleOf } from '../format.ts';
import type { NotifyEvent, Provider } from '../types.ts';

export function emailHtml(event: NotifyEvent): string {
	const rows = [
		['Monitor', event.monitor.name],
		['URL', event.monitor.url],
		...(event.error ? [['Error', event.error]] : []),
		['At', event.at]
	]
		.map(([k, v]) => `<tr><th align="left">${k}</th><td>${escapeHtml(v)}</td></tr>`)
		.join('');
	return `<h2>${escapeHtml(titleOf(event))}</h2><table>${rows}</table><p><a href="${escapeHtml(event.dashboardUrl)}">Open in Upstate</a></p>`;
}

// E-mail through the deployment's mailer (nodemailer, or the local outbox outside production).
// Status 250 is SMTP's "accepted".
export const sendEmail: Provider = async ({ channel, event, deps }) => {
	if (deps.mailer.transport === 'log')
		return {
			ok: false,
			status: 0,
			error: 'mail is not configured (SMTP_URL or EMAIL_PROVIDER_API_KEY)'
		};
	try {
		await deps.mailer.send({
			to: String(channel.settings.email),
			subject: `[Upstate] ${titleOf(event)}`,
			text: summaryOf(event),
			html: emailHtml(event),
			workspaceId: deps.workspaceId
		});
		return { ok: true, status: 250 };
	} catch (err) {
		return { ok: false, status: 0, error: `mail failed: ${(err as Error).message}` };
	}
};
