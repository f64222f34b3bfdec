export { createApiKey } from './create.ts';
export { revokeApiKey } from './revoke.ts';
export { listApiKeys } from './list.ts';
export { authenticateApiKey, type AuthenticatedKey } from './authenticate.ts';
export * from './schemas.ts';
