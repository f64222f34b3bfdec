import { createReadStream } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardProcess, isolate } from '../src/isolate.ts';

// Two services in one process, as main.ts runs them: `site` fails in every way a request can
// (a static file missing under its stream, a throw, a rejection, a timer error); `api` answers.
guardProcess();
const site = http.createServer(
	isolate('dashboard', (req, res) => {
		if (req.url === '/missing.js')
			return void createReadStream('/nonexistent/missing.js').pipe(res);
		if (req.url === '/throw') throw new Error('boom');
		if (req.url === '/reject') return void Promise.reject(new Error('async boom'));
		if (req.url === '/timer') {
			setTimeout(() => {
				throw new Error('late boom');
			}, 1);
			return;
		}
		res.end('site ok');
	})
);
const api = http.createServer(isolate('api', (_req, res) => res.end('api ok')));
const listen = (s: http.Server) =>
	new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));
console.log(JSON.stringify({ site: await listen(site), api: await listen(api) }));
