// Response headers are kept for the response log with anything secret-looking masked; the same
// rule hides header assertion values and decides which request headers a cross-origin redirect drops.
const SECRET =
	/^(set-cookie|cookie|authorization|proxy-authorization|www-authenticate|x-api-key|x-auth-token|x-csrf-token)$|token|secret|session|password|api[-_]?key/i;

export const REDACTED = '[redacted]';

export const isSecretHeader = (key: string): boolean => SECRET.test(key);

export function redactHeaders(
	headers: Record<string, string | string[] | undefined>
): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, value] of Object.entries(headers)) {
		if (value === undefined) continue;
		out[key.toLowerCase()] = isSecretHeader(key)
			? REDACTED
			: Array.isArray(value)
				? value.join(', ')
				: value;
	}
	return out;
}
