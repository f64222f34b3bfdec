import type { createCaller } from '@upstate/server';

declare global {
	namespace App {
		interface Locals {
			api: ReturnType<typeof createCaller>;
		}
	}
}

export {};
