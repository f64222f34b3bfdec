// Test-only: crash tests make the process kill itself (SIGKILL, no clean-up) at a named point of
// the alert path, set with UPSTATE_TEST_CRASH_AT=`point` or `point:detail` (e.g.
// `after-status-commit:error`). Points: after-status-commit (detail: the new status),
// after-incident-commit (detail: the action, e.g. opened, resolved, degraded) and
// after-delivery-send (detail: the event kind, e.g. alert, recovery). Unset: a no-op.
let target: { point: string; detail?: string } | null = null;

export function setCrashPoint(spec: string | undefined): void {
	if (!spec) return void (target = null);
	const [point = '', detail] = spec.split(':');
	target = { point, detail };
	console.warn(`[main] test crash point armed at=${spec}`);
}

export function crashPoint(point: string, detail?: string): void {
	if (!target || target.point !== point) return;
	if (target.detail !== undefined && target.detail !== detail) return;
	console.warn(`[main] test crash at=${point}${detail ? `:${detail}` : ''}`);
	process.kill(process.pid, 'SIGKILL');
}
