// Failures reading a request body that the client caused (a Content-Encoding we do not inflate,
// a body that does not inflate, a charset we do not read, a body cut short): the status to
// answer and what to send instead. body-parser marks them with a 4xx `status`; anything else
// is ours. Each surface wraps the result in its own envelope (REST, JSON-RPC, RFC 6749).
export function bodyReadError(err: unknown): { status: number; message: string } | null {
	const e = err as { status?: unknown; type?: unknown } | null;
	if (typeof e?.status !== 'number' || e.status < 400 || e.status > 499) return null;
	if (e.type === 'entity.parse.failed') return null; // each surface says "not valid JSON" its way
	if (e.type === 'encoding.unsupported')
		return {
			status: 415,
			message: 'unsupported Content-Encoding: send the body uncompressed, or as gzip, deflate or br'
		};
	if (e.type === 'charset.unsupported')
		return { status: 415, message: 'unsupported charset: send the body as UTF-8' };
	return {
		status: e.status === 413 ? 413 : 400,
		message: 'the request body could not be read: check its Content-Encoding and Content-Length'
	};
}
