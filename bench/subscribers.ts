// `npm run bench`: subscriber fan-out. 10,000 confirmed subscribers of one page; a status report
// published with notify: true writes the outbox (one bulk insert, inside the publish call), then
// the delivery worker mails everyone through the pooled SMTP transport to a local smtp-server.
// Prints, does not assert. Target: all 10,000 mails in under 60 s.
import os from 'node:os';
import { SMTPServer } from 'smtp-server';
import { createDeliveryWorker } from '../server/src/domain/delivery/index.ts';
import { createPageComponent } from '../server/src/domain/page-component/index.ts';
import { createStatusPage } from '../server/src/domain/status-page/index.ts';
import { createStatusReport } from '../server/src/domain/status-report/index.ts';
import { createSubscriberNotifier } from '../server/src/domain/subscriber/index.ts';
import { testNotifier } from '../server/test/alerting.ts';
import { createTestDb } from '../server/test/db.ts';
import { TEAM_LIMITS, createWorkspace, ctxFor } from '../server/test/factories.ts';

const COUNT = Number(process.env.BENCH_SUBSCRIBERS ?? 10_000);
const log = console.log;
console.log = () => {}; // one line per attempt and per mail from the services

let received = 0;
const smtp = new SMTPServer({
	authOptional: true,
	disabledCommands: ['STARTTLS'],
	closeTimeout: 100,
	onData(stream, _session, done) {
		stream.on('data', () => {});
		stream.on('end', () => {
			received++;
			done();
		});
	}
});
await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
const port = (smtp.server.address() as { port: number }).port;

const { db } = await createTestDb();
const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'status-subscribers': true } });
const ctx = ctxFor(db, ws);
const page = await createStatusPage({ ctx, input: { title: 'Bench', slug: `bench-${ws.id}` } });
await createPageComponent({ ctx, input: { pageId: page.id, type: 'static', name: 'API' } });
for (let i = 0; i < COUNT; i += 1000)
	await db.pageSubscriber.createMany({
		data: Array.from({ length: Math.min(1000, COUNT - i) }, (_, j) => ({
			workspaceId: ws.id,
			pageId: page.id,
			email: `reader${i + j}@example.com`,
			tokenHash: `bench-${ws.id}-${i + j}`,
			confirmedAt: new Date()
		}))
	});

const notifier = testNotifier({ SMTP_URL: `smtp://127.0.0.1:${port}` });
const started = performance.now();
const published = await createStatusReport({
	ctx,
	notifier: createSubscriberNotifier({ db, statusPageUrl: 'http://status.test' }),
	input: { pageId: page.id, title: 'Bench', status: 'investigating', message: 'm', notify: true }
});
const publishMs = performance.now() - started;
// The worker as main.ts starts it (default poll); it keeps claiming batches until none is due.
const worker = createDeliveryWorker({ db, notifier });
worker.start();
while (received < COUNT) {
	if (performance.now() - started > 300_000) break;
	await new Promise((r) => setTimeout(r, 20));
}
const totalMs = performance.now() - started;
await worker.stop();
notifier.mailer.close?.();
await new Promise<void>((r) => smtp.close(() => r()));
log(
	`subscriber fan-out (${COUNT} subscribers, ${os.cpus().length} cores, notified=${published.notified}): publish call incl. enqueue ${publishMs.toFixed(0)} ms; ${received} mails in ${(totalMs / 1000).toFixed(1)} s = ${(received / (totalMs / 1000)).toFixed(0)} mails/s (target < 60 s)`
);
process.exit(0);
