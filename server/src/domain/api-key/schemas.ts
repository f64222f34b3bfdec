import { z } from 'zod';

// API keys (spec 5.1): scope read or write, immutable; the key is shown once and stored hashed.
export const CreateApiKeyInput = z.object({
	name: z.string().min(1).max(256),
	scope: z.enum(['read', 'write'])
});
export type CreateApiKeyInput = z.infer<typeof CreateApiKeyInput>;

export const ApiKeyIdInput = z.object({ keyId: z.number().int().positive() });
export type ApiKeyIdInput = z.infer<typeof ApiKeyIdInput>;

export const ApiKeyOutput = z.object({
	id: z.number(),
	name: z.string(),
	start: z.string(),
	scope: z.enum(['read', 'write']),
	created_by_id: z.number().nullable(),
	last_used_at: z.string().nullable(),
	revoked_at: z.string().nullable(),
	created_at: z.string()
});
export type ApiKeyOutput = z.infer<typeof ApiKeyOutput>;

export const CreatedApiKeyOutput = ApiKeyOutput.extend({ key: z.string() });
export type CreatedApiKeyOutput = z.infer<typeof CreatedApiKeyOutput>;

export const ApiKeyListOutput = z.object({ data: z.array(ApiKeyOutput) });
export type ApiKeyListOutput = z.infer<typeof ApiKeyListOutput>;
