// "1 h 5 min", "3 min 20 s", "45 s": how long an incident lasted (or has lasted so far).
export function formatDuration(seconds: number): string {
	const h = Math.floor(seconds / 3600);
	const m = Math.floor((seconds % 3600) / 60);
	const s = seconds % 60;
	if (h > 0) return `${h} h ${m} min`;
	if (m > 0) return `${m} min ${s} s`;
	return `${s} s`;
}
