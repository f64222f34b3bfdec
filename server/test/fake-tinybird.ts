import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type TinybirdRequest = {
	method: string;
	path: string;
	query: Record<string, string>;
	authorization: string | undefined;
	contentType: string | undefined;
	body: string;
	status: number;
};

// A local stand-in for Tinybird (a paid third party, unreachable here): it records every
// request exactly and answers as Tinybird's HTTP API does. Pipes answer with `pipes[name]`;
// the Events API accepts only `ingestToken` and answers 403 otherwise.
export async function startFakeTinybird(opts: {
	ingestToken: string;
	readToken: string;
	pipes?: Record<string, Array<Record<string, unknown>>>;
	// GET /v1/deployments of the read token's workspace, as the analytics CLI reads it
	// (`{ deployments: [{ id, status, live }] }`); without it that path answers 404.
	deployments?: Array<{ id: string; status: string; live: boolean }>;
}) {
	const requests: TinybirdRequest[] = [];
	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://tinybird.test');
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const auth = req.headers.authorization;
			const answer = (status: number, body: unknown) => {
				requests.push({
					method: req.method ?? '',
					path: url.pathname,
					query: Object.fromEntries(url.searchParams),
					authorization: auth,
					contentType: req.headers['content-type'],
					body: Buffer.concat(chunks).toString('utf8'),
					status
				});
				res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
			};
			if (url.pathname === '/v0/events') {
				if (auth !== `Bearer ${opts.ingestToken}`)
					return answer(403, { error: 'Invalid token for datasource check_result' });
				const lines = Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean);
				return answer(202, { successful_rows: lines.length, quarantined_rows: 0 });
			}
			const pipe = /^\/v0\/pipes\/(.+)\.json$/.exec(url.pathname)?.[1];
			if (pipe && auth === `Bearer ${opts.readToken}` && opts.pipes?.[pipe])
				return answer(200, { meta: [], data: opts.pipes[pipe], rows: opts.pipes[pipe].length });
			if (pipe) return answer(404, { error: `The pipe '${pipe}' does not exist` });
			if (url.pathname === '/v1/deployments' && opts.deployments) {
				if (auth !== `Bearer ${opts.readToken}`) return answer(403, { error: 'invalid token' });
				return answer(200, { deployments: opts.deployments });
			}
			if (/^\/v0\/datasources\/[^/]+\/delete$/.test(url.pathname))
				return answer(200, { job_id: 'j1', status: 'waiting' });
			return answer(404, { error: 'not found' });
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		close: () => new Promise<void>((r) => server.close(() => r()))
	};
}
