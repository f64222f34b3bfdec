import { adminRouter } from './admin.ts';
import { apiKeyRouter } from './api-key.ts';
import { auditLogRouter } from './audit-log.ts';
import { authRouter } from './auth.ts';
import { componentGroupRouter } from './component-group.ts';
import { incidentRouter } from './incident.ts';
import { invitationRouter } from './invitation.ts';
import { mailOutboxRouter } from './mail-outbox.ts';
import { maintenanceRouter } from './maintenance.ts';
import { memberRouter } from './member.ts';
import { monitorRouter } from './monitor.ts';
import { notificationChannelRouter } from './notification-channel.ts';
import { oauthRouter } from './oauth.ts';
import { pageComponentRouter } from './page-component.ts';
import { privateLocationRouter } from './private-location.ts';
import { responseLogRouter } from './response-log.ts';
import { statusPageRouter } from './status-page.ts';
import { statusReportRouter } from './status-report.ts';
import { subscriberRouter } from './subscriber.ts';
import { createCallerFactory, createTRPCRouter } from './trpc.ts';
import { workspaceRouter } from './workspace.ts';

export const appRouter = createTRPCRouter({
	auth: authRouter,
	workspace: workspaceRouter,
	member: memberRouter,
	invitation: invitationRouter,
	apiKey: apiKeyRouter,
	monitor: monitorRouter,
	statusPage: statusPageRouter,
	pageComponent: pageComponentRouter,
	componentGroup: componentGroupRouter,
	privateLocation: privateLocationRouter,
	notificationChannel: notificationChannelRouter,
	responseLog: responseLogRouter,
	statusReport: statusReportRouter,
	maintenance: maintenanceRouter,
	subscriber: subscriberRouter,
	incident: incidentRouter,
	auditLog: auditLogRouter,
	mailOutbox: mailOutboxRouter,
	oauth: oauthRouter,
	admin: adminRouter
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
