import nodemailer from 'nodemailer';

export type MailMessage = {
	to: string;
	subject: string;
	text: string;
	html?: string;
	headers?: Record<string, string>;
	// The links carry credentials (subscriber confirm/unsubscribe tokens): never print them.
	secretLinks?: boolean;
};
export type Mailer = {
	send(message: MailMessage): Promise<void>;
	transport: 'smtp' | 'log';
	close?: () => void; // ends the pooled SMTP connections (shutdown, tests)
};

// SMTP through nodemailer when SMTP_URL or EMAIL_PROVIDER_API_KEY is set; otherwise (local use)
// the message is printed to the log, so a magic link can be copied from the terminal.
export type MailerConfig = { smtpUrl?: string; from: string; maxConnections?: number };

// One pooled transport per process: subscriber fan-out reuses a few SMTP connections
// (`maxConnections`, default 5) instead of opening one per message.
export function createMailer(config: MailerConfig): Mailer {
	if (!config.smtpUrl) {
		return {
			transport: 'log',
			async send(message) {
				const links = message.secretLinks
					? ['(withheld)']
					: (message.text.match(/https?:\/\/\S+/g) ?? []);
				console.log(
					`[mail] not sent (no SMTP_URL or EMAIL_PROVIDER_API_KEY) to=${message.to} subject=${JSON.stringify(message.subject)} links=${links.join(' ')}`
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
			const { secretLinks: _secret, ...mail } = message;
			const info = await transporter.sendMail({ from: config.from, ...mail });
			console.log(
				`[mail] sent to=${message.to} subject=${JSON.stringify(message.subject)} id=${info.messageId}`
			);
		}
	};
}
