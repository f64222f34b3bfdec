import net from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

// Real servers on 127.0.0.1 for tests: the server's unit tests and e2e/harness.ts both use these.

export async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.once('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address() as net.AddressInfo;
			srv.close(() => resolve(port));
		});
	});
}

export type Mail = {
	to: string;
	subject: string;
	text: string;
	html: string;
	headers: Record<string, string>; // lower-case names, raw values
};

// A real SMTP server on 127.0.0.1 (or `host`: 0.0.0.0 for containers) that keeps what it receives.
export async function startSmtp(host = '127.0.0.1'): Promise<{
	port: number;
	mails: Mail[];
	close: () => Promise<void>;
}> {
	const mails: Mail[] = [];
	const server = new SMTPServer({
		authOptional: true,
		// The mailer keeps pooled connections open: closing must not wait for them.
		closeTimeout: 100,
		disabledCommands: ['STARTTLS'],
		onData(stream, session, done) {
			simpleParser(stream)
				.then((parsed) => {
					mails.push({
						to: session.envelope.rcptTo.map((r) => r.address).join(','),
						subject: parsed.subject ?? '',
						text: parsed.text ?? '',
						html: typeof parsed.html === 'string' ? parsed.html : '',
						headers: Object.fromEntries(
							parsed.headerLines.map((h) => [
								h.key,
								h.line
									.slice(h.key.length + 1)
									.replace(/\r?\n\s+/g, ' ')
									.trim()
							])
						)
					});
					done();
				})
				.catch(done);
		}
	});
	const port = await freePort();
	await new Promise<void>((resolve) => server.listen(port, host, resolve));
	return { port, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

// The first mail to `to`, waiting up to 10 s for it.
export async function waitForMail(smtp: { mails: Mail[] }, to: string): Promise<Mail> {
	for (let i = 0; i < 100; i++) {
		const mail = smtp.mails.find((m) => m.to === to);
		if (mail) return mail;
		await new Promise((r) => setTimeout(r, 100));
	}
	throw new Error(`no mail to ${to}; got ${smtp.mails.map((m) => m.to).join(', ')}`);
}
