// Text and attribute values inside the XML the status site writes (feeds, SVG badges).
export const escapeXml = (s: string): string =>
	s.replace(
		/[<>&'"]/g,
		(c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', "'": 'apos', '"': 'quot' }[c]};`
	);
