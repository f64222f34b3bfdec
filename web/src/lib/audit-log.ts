// Pure helpers for the audit log pages (no server imports: used by .svelte files).
export type AuditActor = {
	actor_type: string;
	actor_id: string;
	actor_user_id: number | null;
};

const KIND: Record<string, string> = {
	user: 'Dashboard',
	apiKey: 'API key',
	mcp: 'MCP',
	system: 'System',
	probe: 'Probe'
};

// "MCP · key_3 (ana@example.com)": how the credential acted and, when known, for whom.
export function actorLabel(e: AuditActor, email: string | null | undefined): string {
	const who = email ?? (e.actor_user_id ? `user ${e.actor_user_id}` : null);
	if (e.actor_type === 'user') return `${KIND.user} · ${who ?? e.actor_id}`;
	const base = `${KIND[e.actor_type] ?? e.actor_type} · ${e.actor_id}`;
	return who ? `${base} (${who})` : base;
}

export const entityLabel = (type: string) => type.replaceAll('_', ' ');

export function showValue(v: unknown): string {
	if (v === undefined) return '';
	if (v === null) return '—';
	return typeof v === 'string' ? v : JSON.stringify(v);
}

// A creation or deletion changes every field; say so instead of listing them all.
export function changeSummary(e: { action: string; changedFields: string[] }): string {
	const verb = e.action.split('.').at(-1);
	if (verb === 'create') return 'created';
	if (verb === 'delete') return 'deleted';
	return e.changedFields.join(', ');
}
