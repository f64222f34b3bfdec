import { sveltekit } from '@sveltejs/kit/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';

// @upstate/server is never bundled: the built app imports it at run time, so it shares one
// module instance (database client, config) with the all-in-one process.
const keepServerExternal: Plugin = {
	name: 'upstate:keep-server-external',
	enforce: 'pre',
	resolveId(id, _importer, options) {
		if (options?.ssr && (id === '@upstate/server' || id.startsWith('@upstate/server/')))
			return { id, external: true };
	}
};

export default defineConfig({
	plugins: [keepServerExternal, tailwindcss(), sveltekit()]
});
