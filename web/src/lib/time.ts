// The dashboard's one timestamp format: "24 Nov 2026, 13:05:09 UTC", the zone always written
// out. UTC unless a page shows times in a zone a person chose (maintenance windows); seconds
// left off for times entered to the minute (schedules). UTC by default so server render,
// hydration and a teammate elsewhere read the same instant.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string, seconds: boolean, year: boolean): Intl.DateTimeFormat {
	const key = `${timeZone} ${seconds} ${year}`;
	let format = formats.get(key);
	if (!format) {
		format = new Intl.DateTimeFormat('en-GB', {
			timeZone,
			day: 'numeric',
			month: 'short',
			...(year ? { year: 'numeric' } : {}),
			hour: '2-digit',
			minute: '2-digit',
			...(seconds ? { second: '2-digit' } : {}),
			hourCycle: 'h23',
			timeZoneName: 'short'
		});
		formats.set(key, format);
	}
	return format;
}

export function formatTime(
	at: string | number | Date,
	{ zone = 'UTC', seconds = true }: { zone?: string; seconds?: boolean } = {}
): string {
	return formatFor(zone, seconds, true).format(new Date(at));
}

/** The same format cut short for a chart's axis, where space is tight: "24 Nov, 13:05 UTC". */
export function formatAxisTime(at: string | number | Date, { zone = 'UTC' } = {}): string {
	return formatFor(zone, false, false).format(new Date(at));
}
