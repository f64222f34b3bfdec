import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

// Shared by web/ and status/: each app's svelte.config.js calls this with its own extras.
// `envPrefix` keeps the two apps' adapter settings apart inside the one all-in-one process.
/** @param {string} envPrefix @param {import('@sveltejs/kit').KitConfig} [kit] */
export function createConfig(envPrefix, kit = {}) {
	return {
		preprocess: vitePreprocess(),
		kit: { adapter: adapter({ precompress: false, envPrefix }), ...kit }
	};
}

export default createConfig('UPSTATE_');
