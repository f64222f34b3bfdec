import { z } from 'zod';
import { ERROR_CODES } from '../../domain/errors.ts';
import { listProcedures } from '../procedures.ts';

type JsonSchema = {
	properties?: Record<string, unknown>;
	required?: string[];
	[k: string]: unknown;
};

function schemaOf(schema: z.ZodType | undefined, io: 'input' | 'output'): JsonSchema {
	if (!schema) return { type: 'object', properties: {} };
	const { $schema: _s, ...rest } = z.toJSONSchema(schema, {
		io,
		unrepresentable: 'any'
	}) as JsonSchema;
	return rest;
}

// /openapi.json, generated from the same procedures and schemas as the REST routes.
export function createOpenApiDocument(args: { serverUrl: string }): Record<string, unknown> {
	const paths: Record<string, Record<string, unknown>> = {};
	for (const proc of listProcedures()) {
		const rest = proc.meta.rest;
		if (!rest) continue;
		const input = schemaOf(proc.input, 'input');
		const pathParams = [...rest.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
		const props = Object.entries(input.properties ?? {}).filter(([k]) => !pathParams.includes(k));
		const parameters: unknown[] = pathParams.map((name) => ({
			name,
			in: 'path',
			required: true,
			schema: input.properties?.[name] ?? { type: 'integer' }
		}));
		const operation: Record<string, unknown> = {
			operationId: proc.path,
			summary: rest.summary,
			tags: rest.tags,
			responses: {
				[String(rest.successStatus ?? 200)]: {
					description: 'Success',
					content: { 'application/json': { schema: schemaOf(proc.output, 'output') } }
				},
				default: {
					description: 'Error',
					content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } }
				}
			}
		};
		if (rest.method === 'GET' || rest.method === 'DELETE') {
			for (const [name, schema] of props)
				parameters.push({
					name,
					in: 'query',
					required: input.required?.includes(name) ?? false,
					schema
				});
		} else {
			const { properties: _p, required, ...shape } = input;
			operation.requestBody = {
				required: true,
				content: {
					'application/json': {
						schema: {
							...shape,
							properties: Object.fromEntries(props),
							required: required?.filter((r) => !pathParams.includes(r))
						}
					}
				}
			};
		}
		operation.parameters = parameters;
		paths[rest.path] = { ...paths[rest.path], [rest.method.toLowerCase()]: operation };
	}
	return {
		openapi: '3.1.0',
		info: {
			title: 'Upstate API',
			version: '1.0.0',
			description: 'REST v1. Authenticate with the x-service-key header.'
		},
		servers: [{ url: args.serverUrl }],
		security: [{ serviceKey: [] }],
		paths,
		components: {
			securitySchemes: { serviceKey: { type: 'apiKey', in: 'header', name: 'x-service-key' } },
			schemas: {
				Error: {
					type: 'object',
					required: ['error'],
					properties: {
						error: {
							type: 'object',
							required: ['code', 'message'],
							properties: {
								code: { type: 'string', enum: [...ERROR_CODES] },
								message: { type: 'string' },
								issues: {
									type: 'array',
									items: {
										type: 'object',
										properties: { path: { type: 'string' }, message: { type: 'string' } }
									}
								}
							}
						}
					}
				}
			}
		}
	};
}

// The committed copy (`openapi.json` at the repository root, `npm run gen:openapi`): the same
// document with the default API address, so every API change shows in a diff (openapi.test.ts).
export const COMMITTED_OPENAPI_SERVER_URL = 'http://localhost:3001';
export const renderCommittedOpenApi = (): string =>
	`${JSON.stringify(createOpenApiDocument({ serverUrl: COMMITTED_OPENAPI_SERVER_URL }), null, '\t')}\n`;
