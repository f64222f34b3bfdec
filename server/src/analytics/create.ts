import type { Config } from '../config.ts';
import { createEmbeddedAnalytics, type AnalyticsStore } from './index.ts';
import { createTinybirdAnalytics } from './tinybird.ts';

// ANALYTICS_URL selects Tinybird; without it every result goes to the embedded libSQL store.
export function createAnalyticsStore(config: Config['analytics']): AnalyticsStore {
	if (!config.url) return createEmbeddedAnalytics({ url: config.embeddedUrl });
	console.log(`[analytics] backend=tinybird url=${config.url}`);
	return createTinybirdAnalytics({
		url: config.url,
		apiKey: config.apiKey,
		ingestToken: config.ingestToken,
		tokenFile: config.tokenFile
	});
}
