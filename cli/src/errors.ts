// Exit codes (README "CLI"): 0 ok, 1 error, 2 usage, 3 drift found by `plan --exit-code`.
export const EXIT = { ok: 0, error: 1, usage: 2, drift: 3 } as const;

// An error the user can act on: what went wrong, then what to do next.
export class CliError extends Error {
	readonly hint: string | undefined;
	readonly exitCode: number;
	constructor(message: string, opts: { hint?: string; exitCode?: number } = {}) {
		super(message);
		this.hint = opts.hint;
		this.exitCode = opts.exitCode ?? EXIT.error;
	}
}

export const usageError = (message: string, hint?: string) =>
	new CliError(message, { hint, exitCode: EXIT.usage });

// The server's error: one of the eight codes of spec 7.1, its message as written.
export type FieldIssue = { path: string; message: string };
export class ApiError extends CliError {
	readonly code: string;
	readonly issues: FieldIssue[];
	constructor(code: string, message: string, issues: FieldIssue[] = [], hint?: string) {
		super(message, { hint: hint ?? HINTS[code] });
		this.code = code;
		this.issues = issues;
	}
}

const HINTS: Record<string, string> = {
	UNAUTHORIZED:
		'check the key: set UPSTATE_API_KEY or run `upstate login` (keys are made in the dashboard under Settings → API keys)',
	FORBIDDEN: 'this key is read-only: use a key with write access for changes',
	NOT_FOUND: 'check the id against the list command (`upstate <resource> list`)',
	VALIDATION: 'fix the fields named above and run the command again',
	CONFLICT: 'the resource changed or the value is taken: fetch it again and retry',
	LIMIT_EXCEEDED:
		"the workspace's plan does not allow this (a limit or a feature): remove something or change the plan",
	PRECONDITION_FAILED: 'the resource is not in a state that allows this: check it with `get`',
	INTERNAL: 'the server failed: try again, and check the server log if it persists'
};
