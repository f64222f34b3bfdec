import { loadConfig, type Config } from './config.ts';
import { createDb, type Db } from './db/client.ts';
import { createMailer, type Mailer } from './mail/index.ts';

// The process-wide services every surface shares. In the all-in-one process main.ts and the
// SvelteKit apps (which import this package at run time, not bundled) get the same instance.
export type Upstate = { config: Config; db: Db; mailer: Mailer };

export function createUpstate(config: Config = loadConfig()): Upstate {
	return {
		config,
		db: createDb({ url: config.databaseUrl, authToken: config.databaseAuthToken }),
		mailer: createMailer(config.mail)
	};
}

let instance: Upstate | undefined;

export function getUpstate(): Upstate {
	instance ??= createUpstate();
	return instance;
}

export function setUpstate(upstate: Upstate): void {
	instance = upstate;
}
