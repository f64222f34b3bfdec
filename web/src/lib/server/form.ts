// Form fields as the router's inputs expect them: text, numbers, booleans, or absent.
export function formValues(data: FormData): Record<string, string> {
	return Object.fromEntries(
		[...data.entries()].filter(([, v]) => typeof v === 'string') as Array<[string, string]>
	);
}

export const text = (v: Record<string, string>, k: string) =>
	v[k] === undefined || v[k] === '' ? undefined : v[k].trim();
export const int = (v: Record<string, string>, k: string) =>
	text(v, k) === undefined ? undefined : Number(v[k]);
export const checkbox = (v: Record<string, string>, k: string) => v[k] === 'on';
export const id = (param: string) => Number.parseInt(param, 10);
