// Field errors as a person reads them: the field named as the form labels it and what to enter,
// instead of zod's wording and the API's field paths (the API keeps those; only the dashboard
// rewrites them).
export type Issue = { path: string; message: string };

const RULES: Array<[RegExp, (m: RegExpMatchArray) => string]> = [
	[/expected number, received NaN/, () => 'enter a number.'],
	[/expected \w+, received undefined/, () => 'this is required.'],
	[/Too small: expected string to have >=1 characters?/, () => 'enter a value.'],
	[
		/Too small: expected string to have >=(\d+) characters?/,
		(m) => `use at least ${m[1]} characters.`
	],
	[
		/Too big: expected string to have <=(\d+) characters?/,
		(m) => `use at most ${m[1]} characters.`
	],
	[/Too small: expected number to be >=?(-?[\d.]+)/, (m) => `enter ${m[1]} or more.`],
	[/Too big: expected number to be <=?(-?[\d.]+)/, (m) => `enter ${m[1]} or less.`],
	[/Too big: expected array to have <=(\d+) items?/, (m) => `enter at most ${m[1]} entries.`],
	[/Too small: expected array to have >=(\d+) items?/, (m) => `enter at least ${m[1]}.`],
	[/Invalid option: expected one of/, () => 'choose one of the options.'],
	[/Invalid (URL|url)/, () => 'enter a full URL, such as https://example.com/health.'],
	[/expected int, received number/, () => 'enter a whole number.'],
	[/Invalid input/, () => 'check this value.']
];

// "Name: use at most 256 characters." — the label, then what to enter.
export function humanMessage(label: string, message: string): string {
	for (const [re, say] of RULES) {
		const m = message.match(re);
		if (m) return `${label}: ${say(m)}`;
	}
	const text = message.trim().replace(/\.$/, '');
	return `${label}: ${text.charAt(0).toLowerCase()}${text.slice(1)}.`;
}

// The issues that belong to a field (its path or one below it), each message once.
export function fieldMessages(issues: Issue[], name: string): string[] {
	const own = issues.filter((i) => i.path === name || i.path.startsWith(`${name}.`));
	return [...new Set(own.map((i) => i.message))];
}

export const errorId = (name: string) => `${name.replace(/[^\w-]/g, '-')}-error`;

// aria-invalid and aria-describedby for a field's input: its error, then its hint if any.
export function fieldAria(issues: Issue[], name: string, hintId?: string) {
	const invalid = fieldMessages(issues, name).length > 0;
	const describedBy = [invalid ? errorId(name) : '', hintId ?? ''].filter(Boolean).join(' ');
	return {
		'aria-invalid': invalid ? ('true' as const) : undefined,
		'aria-describedby': describedBy || undefined
	};
}
