import { randomUUID } from 'node:crypto';
import type { Upstate } from '../app.ts';
import type { ServiceContext, WorkspaceRef } from '../domain/context.ts';

// Scheduled jobs act as the system, one workspace at a time (STYLE 9).
export function toServiceCtx(
	upstate: Upstate,
	workspace: WorkspaceRef,
	job: string
): ServiceContext {
	return {
		db: upstate.db,
		workspace,
		actor: { type: 'system', job },
		requestId: `${job}-${randomUUID()}`
	};
}
