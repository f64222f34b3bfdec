import type { createCaller, SessionUser, TrpcContext } from '@upstate/server';

declare global {
	namespace App {
		interface Locals {
			user: SessionUser | null;
			sessionId: string | null;
			hasWorkspace: boolean;
			api: ReturnType<typeof createCaller>;
			// The caller's context, for what runs procedures by name (the assistant's tools).
			ctx: TrpcContext;
		}
	}
}

export {};
