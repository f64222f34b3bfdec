import { z } from 'zod';

type WithoutDefault<T> = T extends z.ZodDefault<infer I extends z.ZodType> ? I : T;

// Update inputs: every create field optional and without its default, so only what is sent changes.
export function optionalFields<T extends Record<string, z.ZodType>>(
	shape: T
): { [K in keyof T]: z.ZodOptional<WithoutDefault<T[K]>> } {
	const out: Record<string, z.ZodType> = {};
	for (const [key, schema] of Object.entries(shape)) {
		out[key] = (
			schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType) : schema
		).optional();
	}
	// safe because each key was copied from `shape` and wrapped exactly as the type says
	return out as { [K in keyof T]: z.ZodOptional<WithoutDefault<T[K]>> };
}
