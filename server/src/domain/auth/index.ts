export { requestMagicLink, MAGIC_LINK_TTL_MS } from './request-magic-link.ts';
export { verifyMagicLink } from './verify-magic-link.ts';
export * from './schemas.ts';
