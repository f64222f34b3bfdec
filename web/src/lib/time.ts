// The dashboard's one timestamp format: "24 Nov 2026, 13:05:09 UTC". Always UTC with the zone
// written out, so server render, hydration and a teammate elsewhere read the same instant.
const format = new Intl.DateTimeFormat('en-GB', {
	timeZone: 'UTC',
	day: 'numeric',
	month: 'short',
	year: 'numeric',
	hour: '2-digit',
	minute: '2-digit',
	second: '2-digit',
	hourCycle: 'h23'
});

export function formatTime(at: string | number | Date): string {
	return `${format.format(new Date(at))} UTC`;
}
