import { loadConfig } from './config.ts';

// The image's HEALTHCHECK: exits 0 once every service this container runs (UPSTATE_SERVICES)
// answers on its port, 1 with one line naming the first that does not.
const config = loadConfig();
const paths: Record<string, [number, string] | undefined> = {
	workflows: [config.ports.workflows, '/healthz'],
	api: [config.ports.api, '/healthz'],
	dashboard: [config.ports.dashboard, '/'],
	'status-page': [config.ports.statusPage, '/'],
	ingest: [config.ports.ingest, '/']
};
for (const service of config.services) {
	const target = paths[service];
	if (!target) continue;
	const url = `http://127.0.0.1:${target[0]}${target[1]}`;
	try {
		const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(4000) });
		if (res.status >= 500) throw new Error(`status ${res.status}`);
	} catch (err) {
		console.error(`unhealthy service=${service} url=${url} error=${(err as Error).message}`);
		process.exit(1);
	}
}
