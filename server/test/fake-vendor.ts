import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Recorded = {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	body: string;
};

// A stand-in for a paid third party on 127.0.0.1: records every request exactly as received and
// answers with the status (and body) the vendor documents.
export async function startFakeVendor(
	reply: (req: Recorded) => { status: number; body?: unknown } = () => ({ status: 200 })
): Promise<{ url: string; requests: Recorded[]; close: () => Promise<void> }> {
	const requests: Recorded[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const recorded = {
				method: req.method ?? '',
				path: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8')
			};
			requests.push(recorded);
			const { status, body } = reply(recorded);
			res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
			res.end(body === undefined ? '' : JSON.stringify(body));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		close: () => new Promise((resolve) => server.close(() => resolve()))
	};
}
