import { readFileSync } from 'node:fs';
import { loadProbeConfig } from './config.ts';
import { healthFile } from './outbox.ts';

// The image's HEALTHCHECK: healthy while the last exchange with the ingest server succeeded
// (the probe writes the health file after every monitor refresh and result delivery).
const config = loadProbeConfig();
let line = '';
try {
	line = readFileSync(healthFile(config.outboxFile), 'utf8').trim();
} catch {
	console.error('unhealthy: the probe has not reached the ingest server yet');
	process.exit(1);
}
if (!line.startsWith('ok')) {
	console.error(`unhealthy: ${line}`);
	process.exit(1);
}
