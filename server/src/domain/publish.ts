import type { ServiceContext } from './context.ts';

// Spec 4.1 rules 2-4, shared by the four publishing verbs. Runs after the commit, outside the
// transaction: a throwing dispatch never rolls the row back, it only answers notified: false.
export async function dispatchAfterCommit(args: {
	ctx: ServiceContext;
	notify: boolean;
	send: () => Promise<void>;
	markNotified: () => Promise<unknown>;
}): Promise<boolean> {
	const { ctx } = args;
	if (!args.notify) return false;
	// Without subscriber notifications on the plan, dispatch is a silent no-op (rule 4).
	if (ctx.workspace.limits['status-subscribers']) {
		try {
			await args.send();
		} catch (err) {
			console.warn(
				`[notify] dispatch failed workspaceId=${ctx.workspace.id} requestId=${ctx.requestId} error=${err instanceof Error ? err.message : String(err)}`
			);
			return false;
		}
	}
	// notified means dispatch returned; failing to record that must not turn it into a failure.
	await args.markNotified().catch((err: unknown) => {
		console.warn(
			`[notify] could not record notified requestId=${ctx.requestId} error=${String(err)}`
		);
	});
	return true;
}
