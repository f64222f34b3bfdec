const WEB = ['http:', 'https:'];

/**
 * A stored address as a page may show it (link or image): absolute, with an allowed scheme;
 * anything else reads as unset. Rows saved before the write side checked schemes, or written
 * around it, never render a `javascript:` or `data:` link.
 */
export function safeUrl(value: string | null, schemes: readonly string[] = WEB): string | null {
	if (!value || !URL.canParse(value)) return null;
	return schemes.includes(new URL(value).protocol) ? value : null;
}

export const safeContactUrl = (value: string | null): string | null =>
	safeUrl(value, [...WEB, 'mailto:']);
