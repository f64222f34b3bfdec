import { checkbox, int, text } from './form';

// Dashboard monitor form → router input. Type-specific fields follow the spec's names.
export function monitorInput(v: Record<string, string>) {
	const common = {
		name: text(v, 'name') ?? '',
		periodicity: text(v, 'periodicity') ?? '',
		timeout: int(v, 'timeout'),
		retry: int(v, 'retry'),
		degraded_at: int(v, 'degraded_at') ?? null,
		description: v.description ?? '',
		active: checkbox(v, 'active'),
		public: checkbox(v, 'public')
	};
	const type = v.type ?? 'http';
	if (type === 'http') {
		return {
			type,
			...common,
			url: text(v, 'url') ?? '',
			method: text(v, 'method'),
			body: v.body ?? '',
			follow_redirects: checkbox(v, 'follow_redirects')
		};
	}
	if (type === 'grpc')
		return {
			type,
			...common,
			uri: text(v, 'uri') ?? '',
			service: v.service ?? '',
			tls: text(v, 'tls')
		};
	return { type, ...common, uri: text(v, 'uri') ?? '' };
}
