import {
	OutboxMailIdInput,
	OutboxMailListOutput,
	OutboxMailOutput,
	getOutboxMail,
	listOutboxMails
} from '../domain/mail-outbox/index.ts';
import { createTRPCRouter, readProcedure } from './trpc.ts';

// Settings -> Mail on a non-production install with no mail transport; in-process only (no REST
// or MCP exposure: it is the dashboard's view of mail that was never sent).
export const mailOutboxRouter = createTRPCRouter({
	list: readProcedure.output(OutboxMailListOutput).query(({ ctx }) =>
		listOutboxMails({
			ctx: ctx.service,
			userEmail: ctx.user?.email ?? null,
			enabled: ctx.upstate.mailer.transport === 'outbox'
		})
	),
	get: readProcedure
		.input(OutboxMailIdInput)
		.output(OutboxMailOutput)
		.query(({ ctx, input }) =>
			getOutboxMail({
				ctx: ctx.service,
				userEmail: ctx.user?.email ?? null,
				enabled: ctx.upstate.mailer.transport === 'outbox',
				input
			})
		)
});
