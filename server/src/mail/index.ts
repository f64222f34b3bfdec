import nodemailer from 'nodemailer';
import type { Db } from '../db/client.ts';
import { keepOutboxMail } from '../domain/mail-outbox/index.ts';

export type MailMessage = {
	to: string;
	subject: string;
	text: string;
	html?: string;
	headers?: Record<string, string>;
	// The links carry credentials (subscriber confirm/unsubscribe tokens): never print them.
	secretLinks?: boolean;
	// Whose local outbox keeps it (non-production, no transport); unset = a sign-in mail, shown
	// only to the user it was addressed to.
	workspaceId?: number;
};
export type Mailer = {
	send(message: MailMessage): Promise<void>;
	transport: 'smtp' | 'outbox' | 'log';
	close?: () => void; // ends the pooled SMTP connections (shutdown, tests)
};

// SMTP through nodemailer when SMTP_URL or EMAIL_PROVIDER_API_KEY is set. Otherwise, outside
// production (`localOutbox` and a database), every mail is kept in the local outbox the dashboard
// shows under Settings -> Mail; with neither (production, some tests) it is only printed, and
// e-mail channels refuse to send. Either way non-secret links are printed to the log, so the
// first sign-in link can be copied from the terminal.
export type MailerConfig = {
	smtpUrl?: string;
	from: string;
	maxConnections?: number;
	localOutbox?: boolean;
};

function printedLinks(message: MailMessage): string {
	const links = message.secretLinks
		? ['(withheld)']
		: (message.text.match(/https?:\/\/\S+/g) ?? []);
	return links.join(' ');
}

function outboxMailer(db: Db): Mailer {
	return {
		transport: 'outbox',
		async send(message) {
			await keepOutboxMail(db, message);
			console.log(
				`[mail] kept in the local outbox (no SMTP_URL or EMAIL_PROVIDER_API_KEY; Settings -> Mail) to=${message.to} subject=${JSON.stringify(message.subject)} links=${printedLinks(message)}`
			);
		}
	};
}

export function createMailer(config: MailerConfig, db?: Db): Mailer {
	if (!config.smtpUrl && config.localOutbox && db) return outboxMailer(db);
	if (!config.smtpUrl) {
		return {
			transport: 'log',
			async send(message) {
				console.log(
					`[mail] not sent (no SMTP_URL or EMAIL_PROVIDER_API_KEY) to=${message.to} subject=${JSON.stringify(message.subject)} links=${printedLinks(message)}`
				);
			}
		};
	}
	const transporter = nodemailer.createTransport({
		url: config.smtpUrl,
		pool: true,
		maxConnections: config.maxConnections ?? 5,
		maxMessages: Infinity
	});
	return {
		transport: 'smtp',
		close: () => transporter.close(),
		async send(message) {
			const { secretLinks: _secret, workspaceId: _ws, ...mail } = message;
			const info = await transporter.sendMail({ from: config.from, ...mail });
			console.log(
				`[mail] sent to=${message.to} subject=${JSON.stringify(message.subject)} id=${info.messageId}`
			);
		}
	};
}
