// Everything this provider reads from its environment, in one place.
export const MAGIC_COOKIE_KEY = 'TF_PLUGIN_MAGIC_COOKIE';
export const MAGIC_COOKIE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';
export const DEFAULT_BASE_URL = 'http://localhost:3001';

export type LaunchEnv = {
	cookie: string | undefined;
	protocolVersions: string[];
	clientCert: string | undefined;
	apiToken: string | undefined;
};

export function readEnv(env: NodeJS.ProcessEnv = process.env): LaunchEnv {
	return {
		cookie: env[MAGIC_COOKIE_KEY],
		protocolVersions: (env.PLUGIN_PROTOCOL_VERSIONS ?? '').split(',').map((s) => s.trim()),
		clientCert: env.PLUGIN_CLIENT_CERT || undefined,
		apiToken: env.SERVICE_API_TOKEN || undefined
	};
}
