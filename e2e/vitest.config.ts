import { defineConfig } from 'vitest/config';

// Browser journeys against the production build, one all-in-one process per file.
export default defineConfig({
	test: {
		include: ['e2e/**/*.e2e.ts'],
		testTimeout: 120000,
		hookTimeout: 120000,
		fileParallelism: false,
		allowOnly: !process.env.CI
	}
});
