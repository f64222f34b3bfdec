import type { ProviderForm } from '$lib/notification-providers';

// A channel form as the router's input: empty fields are left out, so on edit an empty secret
// keeps the stored one. On edit, an emptied optional plain field, or an empty optional secret whose
// `clear_<name>` box is ticked, is sent as null (cleared). Headers come as "Name: value" lines.
export function channelBlock(
	data: FormData,
	form: ProviderForm,
	options: { edit?: boolean } = {}
): Record<string, unknown> {
	const block: Record<string, unknown> = {};
	for (const field of form.fields) {
		const raw = String(data.get(field.name) ?? '').trim();
		if (raw !== '') block[field.name] = field.input === 'headers' ? parseHeaders(raw) : raw;
		else if (
			options.edit &&
			!field.required &&
			(!field.sensitive || data.has(`clear_${field.name}`))
		)
			block[field.name] = null;
	}
	return block;
}

function parseHeaders(raw: string): Array<{ key: string; value: string }> {
	return raw
		.split(/\r?\n/)
		.map((line) => line.trim())
		.filter(Boolean)
		.map((line) => {
			const i = line.indexOf(':');
			return i < 0
				? { key: line, value: '' }
				: { key: line.slice(0, i).trim(), value: line.slice(i + 1).trim() };
		});
}

// Values safe to echo back into a failed form: never a sensitive field. The ticked monitors come
// back as one comma-separated `monitor_ids` value.
export function safeValues(data: FormData, form: ProviderForm): Record<string, string> {
	const sensitive = new Set(form.fields.filter((f) => f.sensitive).map((f) => f.name));
	return {
		...Object.fromEntries(
			[...data.entries()].filter(
				(e): e is [string, string] => typeof e[1] === 'string' && !sensitive.has(e[0])
			)
		),
		monitor_ids: data.getAll('monitor_ids').map(String).join(',')
	};
}

export const monitorIds = (data: FormData) => data.getAll('monitor_ids').map(Number);
