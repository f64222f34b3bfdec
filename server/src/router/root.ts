import { monitorRouter } from './monitor.ts';
import { createCallerFactory, createTRPCRouter } from './trpc.ts';

export const appRouter = createTRPCRouter({
	monitor: monitorRouter
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
