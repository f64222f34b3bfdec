import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

// The all-in-one process runs several services; one failing request (a handler that throws or
// rejects, a static file that vanished under a stream) must not take the others down. Each
// request runs in its own async context, so an error escaping it, even from a stream's 'error'
// event, is answered on that request alone and logged as one line.
type RequestScope = { service: string; req: IncomingMessage; res: ServerResponse };
const scope = new AsyncLocalStorage<RequestScope>();

export function isolate(service: string, handler: RequestListener): RequestListener {
	return (req, res) =>
		scope.run({ service, req, res }, () => {
			try {
				const result = handler(req, res) as unknown;
				if (result instanceof Promise)
					result.catch((err: unknown) => failRequest({ service, req, res }, err));
			} catch (err) {
				failRequest({ service, req, res }, err);
			}
		});
}

function failRequest({ service, req, res }: RequestScope, err: unknown): void {
	const missing = (err as NodeJS.ErrnoException)?.code === 'ENOENT';
	console.error(
		`[main] request failed service=${service} method=${req.method} url=${JSON.stringify(req.url)} error=${JSON.stringify(describe(err))}`
	);
	if (res.headersSent) {
		res.destroy();
		return;
	}
	res.statusCode = missing ? 404 : 500;
	res.setHeader('content-type', 'text/plain; charset=utf-8');
	res.end(missing ? 'Not found' : 'Internal error: see the server log');
}

function describe(err: unknown): string {
	return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

// Errors that escape every handler: on a request, answered there; elsewhere (a timer, a job)
// logged as one line while the process keeps serving.
export function guardProcess(): void {
	const onError = (kind: string) => (err: unknown) => {
		const request = scope.getStore();
		if (request) return failRequest(request, err);
		console.error(`[main] ${kind} error=${JSON.stringify(describe(err))}`);
	};
	process.on('uncaughtException', onError('uncaught'));
	process.on('unhandledRejection', onError('unhandled-rejection'));
}
