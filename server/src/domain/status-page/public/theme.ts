// Themes are sets of CSS custom properties merged over the status app's base tokens; a page's
// `custom_theme` (plan feature `custom-theme`) is merged over its theme. Only custom properties
// with plain values pass: no url(), no braces, semicolons, quotes or angle brackets, so a value
// can neither load anything nor break out of the style block.
export type ThemeVars = Record<string, string>;
export type ResolvedTheme = { light: ThemeVars; dark: ThemeVars };

export const THEMES: Record<string, ResolvedTheme> = {
	default: { light: {}, dark: {} },
	ocean: {
		light: { '--primary': 'oklch(0.5 0.14 230)', '--background': 'oklch(0.98 0.01 230)' },
		dark: { '--primary': 'oklch(0.72 0.12 230)', '--background': 'oklch(0.18 0.03 240)' }
	},
	mono: {
		light: { '--primary': 'oklch(0.25 0 0)', '--border': 'oklch(0.85 0 0)' },
		dark: { '--primary': 'oklch(0.9 0 0)', '--border': 'oklch(0.35 0 0)' }
	}
};

const NAME = /^--[a-z0-9][a-z0-9-]{0,63}$/i;
const VALUE = /^[a-z0-9#%.,()\s/+-]{1,128}$/i;

export function isSafeCssVar(name: string, value: string): boolean {
	return NAME.test(name) && VALUE.test(value) && !/url\s*\(|expression|\/\*/i.test(value);
}

const clean = (vars: Record<string, unknown> | undefined): ThemeVars =>
	Object.fromEntries(
		Object.entries(vars ?? {}).filter(
			(e): e is [string, string] => typeof e[1] === 'string' && isSafeCssVar(e[0], e[1])
		)
	);

export function resolveTheme(args: {
	theme: string;
	customTheme: string; // the stored JSON
	allowCustom: boolean;
}): ResolvedTheme {
	const base = THEMES[args.theme] ?? THEMES.default;
	let custom: { light?: Record<string, unknown>; dark?: Record<string, unknown> } = {};
	if (args.allowCustom) {
		try {
			custom = JSON.parse(args.customTheme) ?? {};
		} catch {
			custom = {};
		}
	}
	return {
		light: { ...base.light, ...clean(custom.light) },
		dark: { ...base.dark, ...clean(custom.dark) }
	};
}
