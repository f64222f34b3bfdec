// The server package's public entry, imported by web/ and status/ (server-only modules).
export { createUpstate, getUpstate, setUpstate, type Upstate } from './app.ts';
export { appRouter, createCaller, type AppRouter } from './router/root.ts';
export type { TrpcContext, SessionUser } from './router/trpc.ts';
export { toServiceError } from './router/errors.ts';
export { OAuthError } from './domain/oauth/errors.ts';
export { NotFoundError, ServiceError, type ErrorCode, type FieldIssue } from './domain/errors.ts';
export { contextForSession, callerForSession } from './auth/context.ts';
export { handleChat } from './assistant/http.ts';
export {
	runChat,
	ChatRequest,
	ChatProviderError,
	ChatBudgetExceeded,
	MAX_MESSAGE_CHARS
} from './assistant/chat.ts';
export { disconnectSlack, handleSlackInstall, slackIntegration } from './slack/install.ts';
export { SESSION_COOKIE } from './auth/lucia.ts';
export { SignInFlow } from './domain/auth/schemas.ts';
export { AUDIT_ENTITY_TYPES } from './domain/audit-log/schemas.ts';
export type {
	AccessDecision,
	PublicFeedOutput,
	StatuspageV2Output
} from './domain/status-page/index.ts';
export { RenderCache, pageVersion, PAGE_LOCALES, THEME_KEYS } from './domain/status-page/index.ts';
export { setStatusFastPath, statusFastPath, type StatusFastPath } from './status-site.ts';
export { SELF_HOST_LIMITS, SELF_HOST_PLAN } from './domain/limits.ts';
