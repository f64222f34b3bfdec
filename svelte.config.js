import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

// Shared by web/ and status/: each app's svelte.config.js calls this with its own extras.
/** @param {import('@sveltejs/kit').KitConfig} [kit] */
export function createConfig(kit = {}) {
	return {
		preprocess: vitePreprocess(),
		kit: { adapter: adapter({ precompress: false }), ...kit }
	};
}

export default createConfig();
