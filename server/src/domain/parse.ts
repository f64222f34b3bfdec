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

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isWellFormed = (text: string) => !LONE_SURROGATE.test(text);

// The path of the first string (value or key) holding a lone UTF-16 surrogate, which no database
// column can store; null when every string is well-formed. Checked once for every procedure input.
export function findLoneSurrogate(value: unknown, path: string[] = []): string | null {
	if (typeof value === 'string') return isWellFormed(value) ? null : path.join('.');
	if (typeof value !== 'object' || value === null) return null;
	for (const [key, item] of Object.entries(value)) {
		if (!isWellFormed(key)) return [...path, key].join('.');
		const found = findLoneSurrogate(item, [...path, key]);
		if (found !== null) return found;
	}
	return null;
}
