import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { admitRenders } from './status-site.ts';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

// A real server whose handler answers when the test says so, behind admitRenders(2).
async function start() {
	const pending: { id: string; end: () => void }[] = [];
	let inside = 0;
	let most = 0;
	const entered: string[] = [];
	server = http.createServer(
		admitRenders(2, (req, res) => {
			inside++;
			most = Math.max(most, inside);
			entered.push(req.url ?? '');
			pending.push({
				id: req.url ?? '',
				end: () => {
					inside--;
					res.end(req.url);
				}
			});
		})
	);
	await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
	const port = (server.address() as AddressInfo).port;
	const agent = new http.Agent({ maxSockets: 10 });
	const get = (id: string, signal?: AbortSignal) =>
		new Promise<string>((resolve, reject) => {
			http
				.get({ port, host: '127.0.0.1', path: id, agent, signal }, (res) => {
					let body = '';
					res.on('data', (c) => (body += c));
					res.on('end', () => resolve(body));
				})
				.on('error', reject);
		});
	const until = async (n: number) => {
		while (pending.length < n) await new Promise((r) => setTimeout(r, 5));
	};
	return { pending, entered, get, until, most: () => most };
}

describe('admitRenders', () => {
	it('lets at most `limit` requests in at once and the rest in arrival order', async () => {
		const s = await start();
		const answers = ['/1', '/2', '/3', '/4', '/5'].map((id) => s.get(id));
		await s.until(2);
		await new Promise((r) => setTimeout(r, 50));
		expect(s.pending).toHaveLength(2); // the other three wait outside
		for (let served = 0; served < 5; served++) {
			await s.until(served + 1);
			s.pending[served].end();
		}
		expect(await Promise.all(answers)).toEqual(['/1', '/2', '/3', '/4', '/5']);
		expect(s.entered).toEqual(['/1', '/2', '/3', '/4', '/5']);
		expect(s.most()).toBe(2);
	});

	it('skips a reader who left while waiting', async () => {
		const s = await start();
		const first = [s.get('/a'), s.get('/b')];
		await s.until(2);
		const gone = new AbortController();
		const left = s.get('/gone', gone.signal).catch(() => 'aborted');
		await new Promise((r) => setTimeout(r, 30));
		const last = s.get('/c');
		await new Promise((r) => setTimeout(r, 30));
		gone.abort();
		expect(await left).toBe('aborted');
		await new Promise((r) => setTimeout(r, 30));
		s.pending[0].end();
		s.pending[1].end();
		await s.until(3);
		s.pending[2].end();
		expect(await Promise.all([...first, last])).toEqual(['/a', '/b', '/c']);
		expect(s.entered).toEqual(['/a', '/b', '/c']);
	});
});
