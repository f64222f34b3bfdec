// `npm run bench`: the durable alert path on the real all-in-one server process (workflows +
// ingest, crash-stack.ts). 1) alert latency, result reported → webhook received, through the
// status_event record; 2) steady load (a result every 20 ms, a status change every 10) while the
// server is SIGKILLed and restarted N times: results lost / stored twice (expected 0 / 0), and
// per incident whether its alert and recovery arrived, in order. Prints, does not assert.
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { startCrashRig } from '../server/test/crash-stack.ts';
import { pct } from './stats.ts';

const transitions = Number(process.env.BENCH_ALERTS ?? 40);
const kills = Number(process.env.BENCH_KILLS ?? 5);
const log = console.log;
console.log = () => {};
console.warn = () => {};

const rig = await startCrashRig();
const waitFor = async (n: number, ms = 30_000) => {
	const end = performance.now() + ms;
	while (rig.receiver.requests.length < n && performance.now() < end)
		await new Promise((r) => setTimeout(r, 1));
	return rig.receiver.requests.length >= n;
};

// 1) Latency: alert, recovery, alert, …
const times: number[] = [];
for (let i = 0; i < transitions; i++) {
	const before = rig.receiver.requests.length;
	const started = performance.now();
	await rig.report(rig.result(i % 2 === 0 ? 'error' : 'success'));
	if (!(await waitFor(before + 1))) throw new Error(`transition ${i}: no webhook within 30 s`);
	times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
log(
	`alert latency, durable path (all-in-one process, ${transitions} transitions, ${os.cpus().length} cores): p50=${pct(times, 50).toFixed(1)} ms p99=${pct(times, 99).toFixed(1)} ms max=${(times.at(-1) ?? NaN).toFixed(1)} ms`
);
if (times.length % 2 === 1) await rig.report(rig.result('success')); // end recovered

// 2) Steady load with kills. Like the probe, a result is resent until the server acknowledges it.
const firstWebhook = rig.receiver.requests.length;
const lastIncident =
	(
		await rig.db.incident.findFirst({
			where: { monitorId: rig.monitor.id },
			orderBy: { id: 'desc' }
		})
	)?.id ?? 0;
const produced: string[] = [];
const pending: Array<ReturnType<typeof rig.result>> = [];
let stop = false;
let n = 0;
const producer = (async () => {
	while (!stop) {
		const r = rig.result(Math.floor(n++ / 10) % 2 === 0 ? 'error' : 'success');
		produced.push(r.resultId);
		pending.push(r);
		await new Promise((res) => setTimeout(res, 20));
	}
})();
const sender = (async () => {
	while (!stop || pending.length) {
		const batch = pending.slice(0, 50);
		if (batch.length && (await rig.reportMany(batch))) pending.splice(0, batch.length);
		await new Promise((res) => setTimeout(res, 20));
	}
})();
for (let k = 0; k < kills; k++) {
	await new Promise((r) => setTimeout(r, 1500 + Math.random() * 1500));
	await rig.restart();
}
await new Promise((r) => setTimeout(r, 2000));
stop = true;
await producer;
pending.push(rig.result('success')); // ends recovered, after everything before it
await sender;
const end = performance.now() + 60_000;
while (!(await rig.settled()) && performance.now() < end)
	await new Promise((r) => setTimeout(r, 100));

const store = createClient({ url: `file:${path.join(rig.dataDir, 'analytics.db')}` });
const rows = (
	await store.execute('select result_id, count(*) as n from check_result group by result_id')
).rows;
store.close();
const stored = new Map(rows.map((r) => [String(r.result_id), Number(r.n)]));
const lost = produced.filter((id) => !stored.has(id)).length;
const twice = [...stored.values()].filter((c) => c > 1).length;
// Alerts of the load phase: per incident, the webhook sequence.
const incidents = await rig.db.incident.findMany({
	where: { monitorId: rig.monitor.id, id: { gt: lastIncident } },
	orderBy: { id: 'asc' }
});
const byIncident = new Map<number, string[]>();
for (const req of rig.receiver.requests.slice(firstWebhook)) {
	const body = JSON.parse(req.body) as { event: string; incident_id: number | null };
	if (body.incident_id !== null)
		byIncident.set(body.incident_id, [...(byIncident.get(body.incident_id) ?? []), body.event]);
}
let missing = 0;
let outOfOrder = 0;
let resent = 0;
for (const incident of incidents) {
	const seq = byIncident.get(incident.id) ?? [];
	if (!seq.includes('alert') || !seq.includes('recovery')) missing++;
	if (seq.includes('recovery') && seq.lastIndexOf('alert') > seq.indexOf('recovery')) outOfOrder++;
	resent += seq.length - new Set(seq).size;
}
await rig.stop();
log(
	`crash durability (${kills} SIGKILLs under a result every 20 ms, ${produced.length} results, ${incidents.length} incidents): results lost=${lost} stored twice=${twice}; incidents missing an alert or recovery=${missing}, recovery before alert=${outOfOrder}, webhooks resent (at-least-once)=${resent}`
);
process.exit(0);
