// RFC 4180 fields, plus the OWASP guard against formula injection: a cell a spreadsheet would
// evaluate (= + - @, tab, carriage return) is prefixed with a single quote.
export function csvField(value: string): string {
	const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
	return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (fields: string[]) => `${fields.map(csvField).join(',')}\r\n`;
