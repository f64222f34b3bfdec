import { ServiceError, PAGE_LOCALES, THEME_KEYS } from '@upstate/server';
import { checkbox, formValues, text } from './form';

// Entries separated by commas or new lines; spaces inside an entry stay, so the schema sees
// (and names) "not a domain!!" as the one bad entry it is.
export const list = (value: string | undefined) =>
	(value ?? '')
		.split(/[,\r\n]+/)
		.map((s) => s.trim())
		.filter(Boolean);

// The form's fields as sent; the locale checkboxes share one name, kept as a comma list.
export function statusPageValues(data: FormData): Record<string, string> {
	return { ...formValues(data), locales: data.getAll('locales').map(String).join(',') };
}

// What the settings form offers: the status site's languages (named in their own language) and
// the theme keys.
export function statusPageChoices() {
	return {
		locales: PAGE_LOCALES.map((code) => ({
			code,
			name: new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code
		})),
		themes: THEME_KEYS
	};
}

// custom_theme light/dark arrive as JSON text; a parse error lands on its own field.
function cssVars(v: Record<string, string>, key: 'light' | 'dark'): Record<string, string> {
	const raw = text(v, `custom_theme_${key}`);
	if (!raw) return {};
	try {
		const parsed: unknown = JSON.parse(raw);
		if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
			return parsed as Record<string, string>; // the router's schema checks names and values
	} catch {
		// fall through to the field error
	}
	const path = `custom_theme.${key}`;
	const message = 'must be a JSON object such as {"--primary": "#0f172a"}';
	throw new ServiceError('VALIDATION', `${path}: ${message}`, { issues: [{ path, message }] });
}

// Every field of spec 2.12 from the page settings form. An empty password keeps the current one.
export function statusPageUpdate(pageId: number, v: Record<string, string>) {
	const password = v.password ? v.password : undefined;
	return {
		pageId,
		title: text(v, 'title') ?? '',
		slug: text(v, 'slug') ?? '',
		description: v.description ?? '',
		homepage_url: text(v, 'homepage_url') ?? null,
		contact_url: text(v, 'contact_url') ?? null,
		icon: text(v, 'icon') ?? null,
		custom_domain: text(v, 'custom_domain') ?? null,
		access_type: (text(v, 'access_type') ?? 'public') as
			'public' | 'password' | 'email-domain' | 'ip-restriction',
		...(password !== undefined && { password }),
		auth_email_domains: list(v.auth_email_domains),
		allowed_ip_ranges: list(v.allowed_ip_ranges).join(','),
		theme: text(v, 'theme') ?? 'default',
		custom_theme: { light: cssVars(v, 'light'), dark: cssVars(v, 'dark') },
		// The router's schema checks both against PAGE_LOCALES and names a bad value.
		default_locale: (text(v, 'default_locale') ?? 'en') as (typeof PAGE_LOCALES)[number],
		locales: list(v.locales) as Array<(typeof PAGE_LOCALES)[number]>,
		allow_index: checkbox(v, 'allow_index')
	};
}
