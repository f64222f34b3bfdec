import type { z } from 'zod';
import { ValidationError, type FieldIssue } from './errors.ts';

// Verbs parse their own input so every caller (tRPC, REST, MCP, cron, tests) gets the same checks.
// The message names each offending field: "url: Too big: expected string to have <=2048 characters".
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
	const result = schema.safeParse(input);
	if (result.success) return result.data;
	throw validationErrorFrom(result.error);
}

export function validationErrorFrom(error: z.ZodError): ValidationError {
	const issues: FieldIssue[] = error.issues.map((i) => ({
		path: i.path.map(String).join('.'),
		message: i.message
	}));
	const message = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
	return new ValidationError(message, issues);
}
