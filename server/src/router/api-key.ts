import {
	ApiKeyIdInput,
	ApiKeyListOutput,
	ApiKeyOutput,
	CreateApiKeyInput,
	CreatedApiKeyOutput,
	createApiKey,
	listApiKeys,
	revokeApiKey
} from '../domain/api-key/index.ts';
import { createTRPCRouter, readProcedure, writeProcedure } from './trpc.ts';

const tags = ['api keys'];

export const apiKeyRouter = createTRPCRouter({
	list: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/api-keys',
				summary: 'List API keys (never the keys themselves)',
				tags
			}
		})
		.output(ApiKeyListOutput)
		.query(({ ctx }) => listApiKeys({ ctx: ctx.service })),
	create: writeProcedure
		.meta({
			rest: {
				method: 'POST',
				path: '/v1/api-keys',
				summary: 'Create an API key; the key is returned once',
				tags,
				successStatus: 201
			}
		})
		.input(CreateApiKeyInput)
		.output(CreatedApiKeyOutput)
		.mutation(({ ctx, input }) => createApiKey({ ctx: ctx.service, input })),
	revoke: writeProcedure
		.meta({
			rest: { method: 'DELETE', path: '/v1/api-keys/{keyId}', summary: 'Revoke an API key', tags }
		})
		.input(ApiKeyIdInput)
		.output(ApiKeyOutput)
		.mutation(({ ctx, input }) => revokeApiKey({ ctx: ctx.service, input }))
});
