import type { createCaller } from '@upstate/server';

declare global {
	namespace App {
		interface Locals {
			api: ReturnType<typeof createCaller>;
			lang: string; // the page's reader locale, for <html lang>
		}
	}
}

export {};
