export { getPublicStatusPage } from './get-page.ts';
export { getPublicReport } from './get-report.ts';
export { listPublicHistory } from './list-history.ts';
export { unlockStatusPage } from './unlock.ts';
export { requestStatusPageAccess } from './request-access.ts';
export { verifyStatusPageAccess } from './verify-access.ts';
export { resolveCustomDomain } from './resolve-domain.ts';
export type { PublicDeps } from './open-page.ts';
export * from './schemas.ts';
export { getPublicGate } from './gate.ts';
export { getPublicFeed } from './feed.ts';
export { getStatuspageV2 } from './statuspage-v2.ts';
export { RenderCache, pageVersion } from './render-cache.ts';
export {
	markPageChanged,
	markMonitorPagesChanged,
	markWorkspacePagesChanged
} from './page-changes.ts';
export type { OpenedPage } from './open-page.ts';
export { PAGE_LOCALES } from './locales.ts';
