import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		include: [
			'server/**/*.test.ts',
			'probe/**/*.test.ts',
			'cli/test/**/*.test.ts',
			'terraform-provider/test/**/*.test.ts',
			'status/src/**/*.test.ts',
			'web/src/**/*.test.ts'
		],
		testTimeout: 20000,
		hookTimeout: 30000
	}
});
