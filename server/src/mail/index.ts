import nodemailer from 'nodemailer';

export type MailMessage = {
	to: string;
	subject: string;
	text: string;
	html?: string;
	headers?: Record<string, string>;
};
export type Mailer = { send(message: MailMessage): Promise<void>; transport: 'smtp' | 'log' };

// SMTP through nodemailer when SMTP_URL or EMAIL_PROVIDER_API_KEY is set; otherwise (local use)
// the message is printed to the log, so a magic link can be copied from the terminal.
export function createMailer(config: { smtpUrl?: string; from: string }): Mailer {
	if (!config.smtpUrl) {
		return {
			transport: 'log',
			async send(message) {
				const links = message.text.match(/https?:\/\/\S+/g) ?? [];
				console.log(
					`[mail] not sent (no SMTP_URL or EMAIL_PROVIDER_API_KEY) to=${message.to} subject=${JSON.stringify(message.subject)} links=${links.join(' ')}`
				);
			}
		};
	}
	const transporter = nodemailer.createTransport(config.smtpUrl);
	return {
		transport: 'smtp',
		async send(message) {
			const info = await transporter.sendMail({ from: config.from, ...message });
			console.log(
				`[mail] sent to=${message.to} subject=${JSON.stringify(message.subject)} id=${info.messageId}`
			);
		}
	};
}
