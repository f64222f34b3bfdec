import type { AccessDecision } from '@upstate/server';

// A feed, badge or JSON view whose reader did not pass the page's gate: no data, only the
// reason (the HTML page shows the form; these views have no form to show).
export function deniedResponse(access: AccessDecision, headers: Record<string, string> = {}) {
	const status = access === 'ip-denied' ? 403 : 401;
	return new Response(status === 403 ? 'Forbidden' : 'This status page is protected.', {
		status,
		headers: { 'content-type': 'text/plain; charset=utf-8', ...headers }
	});
}
