export type Phase = 'in-progress' | 'upcoming' | 'past';
export const PHASE_LABELS: Record<Phase, string> = {
	'in-progress': 'In progress',
	upcoming: 'Upcoming',
	past: 'Past'
};

type Window = { from: string; to: string };

export function phaseOf(w: Window, now: Date): Phase {
	const t = now.getTime();
	if (Date.parse(w.to) <= t) return 'past';
	return Date.parse(w.from) <= t ? 'in-progress' : 'upcoming';
}

const RANK: Record<Phase, number> = { 'in-progress': 0, upcoming: 1, past: 2 };

// What needs attention first: running and coming windows by start (soonest first), then past
// ones most recently ended first.
export function orderWindows<T extends Window>(
	windows: T[],
	now: Date
): Array<T & { phase: Phase }> {
	return windows
		.map((w) => ({ ...w, phase: phaseOf(w, now) }))
		.sort(
			(a, b) =>
				RANK[a.phase] - RANK[b.phase] ||
				(a.phase === 'past'
					? Date.parse(b.to) - Date.parse(a.to) || Date.parse(b.from) - Date.parse(a.from)
					: Date.parse(a.from) - Date.parse(b.from))
		);
}
