/**
 * A view's own path under the page's `base` (`/<slug>`, or '' on its custom domain), built from
 * its route and params. Renders are cached by route and params, never by the request path,
 * which differs between hosts for one page; links built from the request path would leak
 * from one host's render into another's.
 */
export function viewPath(
	base: string,
	routeId: string | null,
	params: Record<string, string>
): string {
	const rest = (routeId ?? '')
		.replace(/^\/\[slug\]/, '')
		.replace(/\[(\.\.\.)?(\w+)(?:=\w+)?\]/g, (_, spread: string | undefined, name: string) =>
			spread ? encodeURI(params[name] ?? '') : encodeURIComponent(params[name] ?? '')
		);
	return `${base}${rest}` || '/';
}
