// Target server for the latency-accuracy bench, run as a child process so that its timers and
// sockets never share the probe's event loop. Per request (the path is its id) it records, on the
// machine-wide monotonic clock (`process.hrtime`, CLOCK_MONOTONIC, the same in every process),
// when the connection was accepted and when the last byte of the response went to the kernel
// (taken after the write; `before` is taken just before it, so the two bound the write).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { PerformanceObserver } from 'node:perf_hooks';

const delayMs = Number(process.argv[2] ?? 50);
const acceptedAt = new WeakMap<Socket, bigint>();
// The target's own GC pauses, on the shared monotonic clock (ns, as strings): one during a
// request makes the reference late, not the probe.
const gcs: Array<{ start: string; end: string }> = [];
const origin = process.hrtime.bigint() - BigInt(Math.round(performance.now() * 1e6));
new PerformanceObserver((list) => {
	for (const e of list.getEntries()) {
		const start = origin + BigInt(Math.round(e.startTime * 1e6));
		gcs.push({ start: String(start), end: String(start + BigInt(Math.round(e.duration * 1e6))) });
	}
}).observe({ entryTypes: ['gc'] });
const seen: Record<string, { accepted: string; before: string; written: string }> = {};

const server = http.createServer((req, res) => {
	const accepted = acceptedAt.get(req.socket) ?? 0n;
	setTimeout(() => {
		const before = String(process.hrtime.bigint());
		const record = () =>
			(seen[req.url ?? ''] = {
				accepted: String(accepted),
				before,
				written: String(process.hrtime.bigint())
			});
		res.end('ok');
		// A small response is written synchronously; if the kernel did not take it all, wait for it.
		if (req.socket.writableLength === 0) record();
		else res.on('finish', record);
	}, delayMs);
});
// Prepended: marked before the HTTP server's own connection setup, so with many connections
// accepted at once each mark is late by the marks before it, not by their setup too.
server.prependListener('connection', (socket: Socket) =>
	acceptedAt.set(socket, process.hrtime.bigint())
);
server.listen(0, '127.0.0.1', () =>
	process.send?.({ port: (server.address() as AddressInfo).port })
);
process.on('message', (msg) => {
	if (msg === 'dump') process.send?.({ seen, gcs }, () => process.exit(0));
});
