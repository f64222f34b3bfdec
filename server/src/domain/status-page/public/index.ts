export { getPublicStatusPage } from './get-page.ts';
export { getPublicReport } from './get-report.ts';
export { listPublicHistory } from './list-history.ts';
export { unlockStatusPage } from './unlock.ts';
export { requestStatusPageAccess } from './request-access.ts';
export { verifyStatusPageAccess } from './verify-access.ts';
export { resolveCustomDomain } from './resolve-domain.ts';
export type { PublicDeps } from './open-page.ts';
export * from './schemas.ts';
