import { apiKeyRouter } from './api-key.ts';
import { componentGroupRouter } from './component-group.ts';
import { monitorRouter } from './monitor.ts';
import { pageComponentRouter } from './page-component.ts';
import { statusPageRouter } from './status-page.ts';
import { createCallerFactory, createTRPCRouter } from './trpc.ts';

export const appRouter = createTRPCRouter({
	monitor: monitorRouter,
	statusPage: statusPageRouter,
	pageComponent: pageComponentRouter,
	componentGroup: componentGroupRouter,
	apiKey: apiKeyRouter
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
