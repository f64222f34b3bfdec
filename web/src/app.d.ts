import type { createCaller, SessionUser } from '@upstate/server';

declare global {
	namespace App {
		interface Locals {
			user: SessionUser | null;
			sessionId: string | null;
			hasWorkspace: boolean;
			api: ReturnType<typeof createCaller>;
		}
	}
}

export {};
