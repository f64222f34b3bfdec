// The languages the status site ships (status/src/lib/i18n). A stored locale outside them
// (`de-AT` reads German) is never passed on: it ends up in `<html lang>` and in Intl calls.
export const PAGE_LOCALES = ['en', 'de', 'fr', 'es', 'ja'] as const;

export function pageLocale(tag: string): string | null {
	const lang = tag.toLowerCase().split('-')[0];
	return PAGE_LOCALES.find((l) => l === lang) ?? null;
}
