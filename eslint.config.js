import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';

// One config for every workspace: the recommended sets, plus the layer fences of
// ARCHITECTURE.md as import restrictions (server/test/lint.test.ts crosses each one).

const TESTS = ['**/*.test.ts', '**/test/**', 'e2e/**', 'bench/**', 'scripts/**', 'cli/scripts/**'];

// Prisma's client (and the generated one behind it) belongs to domain/ and db/.
const PRISMA = {
	group: ['@prisma/client', '@prisma/client/*', '.prisma/*', '@prisma/adapter-*'],
	message: 'Prisma is for server/src/domain and server/src/db only: call a domain verb.'
};

// A relative specifier that leaves a file `depth` folders below server/src and enters `names`.
const into = (depth, names) => `^${depth === 0 ? '\\./' : `(\\.\\./){${depth}}`}(${names})`;

// Each fence is written once per folder depth below server/src, so `../oauth/` from
// domain/member (domain/oauth) and `../../oauth/` (the HTTP endpoints) are told apart.
const DEPTHS = [0, 1, 2, 3, 4];
const atDepth = (root, depth) => `${root}${'/*'.repeat(depth + 1)}.ts`;

// The composition root builds the client and runs migrations; lucia's session adapter is a
// storage adapter by lucia's contract; the analytics store opens its own libSQL file with db/'s
// directory and busy-timeout helpers (no Prisma).
const DB_ALLOWED = [
	'server/src/domain/**',
	'server/src/db/**',
	'server/src/app.ts',
	'server/src/main.ts',
	'server/src/auth/lucia.ts',
	'server/src/analytics/index.ts'
];

// A query through a client handed in (`upstate.db.monitor.findMany`, `tx.$transaction`) needs
// no import: these selectors catch it.
const PRISMA_CALL =
	'/^(find\\w*|create\\w*|update\\w*|upsert|delete\\w*|count|aggregate|groupBy)$/';
const QUERY_MESSAGE = 'Queries belong in server/src/domain: call (or add) a verb.';
const QUERIES = [
	`MemberExpression[property.name=${PRISMA_CALL}][object.object.name=/^(db|tx)$/]`,
	`MemberExpression[property.name=${PRISMA_CALL}][object.object.property.name=/^(db|tx)$/]`,
	'MemberExpression[property.name=/^[$](transaction|queryRaw\\w*|executeRaw\\w*)$/]'
].map((selector) => ({ selector, message: QUERY_MESSAGE }));

const dbFence = DEPTHS.map((depth) => ({
	files: [atDepth('server/src', depth)],
	ignores: [...DB_ALLOWED, ...TESTS],
	rules: {
		'no-restricted-syntax': ['error', ...QUERIES],
		'@typescript-eslint/no-restricted-imports': [
			'error',
			{
				patterns: [
					PRISMA,
					{
						regex: into(depth, 'db/'),
						// A `Db` type carried in a context cannot query; values can.
						allowTypeImports: true,
						message: 'server/src/db is for domain/ and db/ only: call a domain verb.'
					}
				]
			}
		]
	}
}));

// The domain is called by transports; it imports none of them.
const domainFence = DEPTHS.slice(1).map((depth) => ({
	files: [atDepth('server/src/domain', depth - 1)],
	ignores: TESTS,
	rules: {
		'@typescript-eslint/no-restricted-imports': [
			'error',
			{
				paths: ['express', 'node:http', 'node:http2', 'node:https'].map((name) => ({
					name,
					message: 'The domain speaks no HTTP: an adapter does.'
				})),
				patterns: [
					{
						group: ['@trpc/*', '@connectrpc/*', '@modelcontextprotocol/*'],
						message: 'The domain speaks no transport: an adapter does.'
					},
					{
						regex: into(
							depth,
							'router/|adapters/|workflows/|ingest/|oauth/|api\\.ts|app\\.ts|main\\.ts|status-site\\.ts|local-probe\\.ts'
						),
						message:
							'server/src/domain imports no router, adapter, workflow or HTTP code: pass what it needs in.'
					}
				]
			}
		]
	}
}));

const SERVER_ONLY = [
	'{web,status}/src/lib/server/**',
	'{web,status}/src/hooks.server.ts',
	'{web,status}/src/**/+page.server.ts',
	'{web,status}/src/**/+layout.server.ts',
	'{web,status}/src/**/+server.ts'
];

const SERVER_PACKAGE = {
	group: ['@upstate/server', '@upstate/server/*'],
	message:
		'@upstate/server is for server-only modules ($lib/server, hooks.server.ts, +*.server.ts, +server.ts).'
};

export default ts.config(
	{
		ignores: [
			'**/node_modules/**',
			'**/.svelte-kit/**',
			'**/build/**',
			'cli/dist/**',
			'proto/gen/**',
			'**/generated/**',
			'test-results/**',
			'data/**'
		]
	},
	js.configs.recommended,
	...ts.configs.recommended,
	...svelte.configs.recommended,
	{
		linterOptions: { reportUnusedDisableDirectives: 'error' },
		languageOptions: { globals: { ...globals.node } }
	},
	{
		files: ['**/*.svelte', '**/*.svelte.ts'],
		languageOptions: {
			globals: { ...globals.browser },
			parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] }
		}
	},
	{
		rules: {
			// Unused names starting with _ are deliberate (a parameter kept for its position).
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }
			],
			// Neither app sets kit.paths.base, so resolve() would hand back every href unchanged.
			'svelte/no-navigation-without-resolve': 'off',
			// The fences below use the TypeScript version (it can let type-only imports through).
			'no-restricted-imports': 'off',
			// process.env is read in config.ts only (server and probe); see the override below.
			'no-restricted-properties': 'off'
		}
	},
	{
		// Each flagged URLSearchParams is a throwaway built inside a function to format an href.
		files: ['web/src/routes/**/*.svelte'],
		rules: { 'svelte/prefer-svelte-reactivity': 'off' }
	},
	{
		files: ['server/src/**/*.ts', 'probe/src/**/*.ts'],
		ignores: ['server/src/config.ts', 'probe/src/config.ts', ...TESTS],
		rules: {
			'no-restricted-properties': [
				'error',
				{
					object: 'process',
					property: 'env',
					message: 'Read the environment in config.ts only (parsed once with zod) and pass it in.'
				}
			]
		}
	},
	...dbFence,
	...domainFence,
	{
		files: ['{web,status}/src/**/*.{ts,svelte}'],
		// app.d.ts only declares App.Locals' types (erased, never bundled).
		ignores: [...SERVER_ONLY, '{web,status}/src/app.d.ts', '{web,status}/src/**/*.test.ts'],
		rules: {
			'@typescript-eslint/no-restricted-imports': ['error', { patterns: [SERVER_PACKAGE, PRISMA] }]
		}
	},
	{
		files: SERVER_ONLY,
		rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [PRISMA] }] }
	},
	{
		files: ['probe/src/**/*.ts'],
		ignores: TESTS,
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{
					patterns: [
						{ ...SERVER_PACKAGE, message: 'The probe imports nothing from the server.' },
						{ regex: '(^|/)server/', message: 'The probe imports nothing from the server.' },
						PRISMA
					]
				}
			]
		}
	},
	{
		files: ['cli/src/**/*.ts'],
		ignores: TESTS,
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{
					paths: [
						{
							name: '@upstate/server',
							// AppRouter's type gives the calls their shapes; no server code is bundled.
							allowTypeImports: true,
							message: 'The CLI takes only the pure zod schemas: @upstate/server/schemas.'
						}
					],
					patterns: [PRISMA]
				}
			]
		}
	}
);
