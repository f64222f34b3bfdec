export { requestMagicLink, MAGIC_LINK_TTL_MS } from './request-magic-link.ts';
export { checkMagicLink } from './check-magic-link.ts';
export { verifyMagicLink } from './verify-magic-link.ts';
export { finishProviderSignIn } from './finish-provider-sign-in.ts';
export { signInWithProvider } from './sign-in-with-provider.ts';
export { getSessionWorkspace, type SessionWorkspace } from './session-workspace.ts';
export * from './schemas.ts';
