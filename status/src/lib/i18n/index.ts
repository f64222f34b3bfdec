import { de } from './de.ts';
import { en, type Messages } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { ja } from './ja.ts';

export type { Messages };
export const MESSAGES: Record<string, Messages> = { en, de, fr, es, ja };
export const LANGUAGE_NAMES: Record<string, string> = {
	en: 'English',
	de: 'Deutsch',
	fr: 'Français',
	es: 'Español',
	ja: '日本語'
};

// `de-AT` reads German; a language we do not ship reads English.
export function messagesFor(locale: string): Messages {
	return MESSAGES[locale] ?? MESSAGES[locale.split('-')[0].toLowerCase()] ?? en;
}

/**
 * The reader's locale among the page's `locales`: an explicit `?lang=` wins (and is remembered
 * in a cookie by the caller), then the remembered choice, then the page's default.
 */
export function pickLocale(args: {
	query: string | null;
	cookie: string | null;
	locales: string[];
	defaultLocale: string;
}): string {
	for (const wanted of [args.query, args.cookie]) {
		if (wanted && args.locales.includes(wanted)) return wanted;
	}
	return args.defaultLocale;
}

// The `<html lang>` value: a language we ship, else English. It is spliced into markup
// unescaped by SvelteKit, so it is escaped here all the same.
export function htmlLang(locale: string): string {
	const lang = Object.hasOwn(MESSAGES, locale) ? locale : 'en';
	return lang.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export const fill = (template: string, values: Record<string, string | number>) =>
	template.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));
