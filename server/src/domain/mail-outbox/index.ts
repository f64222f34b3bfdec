import { z } from 'zod';
import type { Db, Prisma } from '../../db/client.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { NotFoundError } from '../errors.ts';
import { parseInput } from '../parse.ts';

// The local outbox (non-production, no mail transport), read on Settings -> Mail. Who sees what:
// the workspace's mails (invitations, subscriber mails, e-mail channels, location notices) to
// its members; a sign-in mail (no workspace) only to the signed-in user it was addressed to.
// `enabled` is false unless this process keeps an outbox, so production never shows one.
// The outbox keeps the newest OUTBOX_KEEP mails of the install, none older than OUTBOX_DAYS.
export const OUTBOX_KEEP = 500;
export const OUTBOX_DAYS = 7;

// Keeps one mail (the mailer's outbox transport) and trims what falls outside the bounds.
export async function keepOutboxMail(
	db: Db,
	mail: { workspaceId?: number; to: string; subject: string; text: string }
): Promise<void> {
	const row = await db.outboxMail.create({
		data: {
			workspaceId: mail.workspaceId ?? null,
			to: mail.to,
			subject: mail.subject,
			text: mail.text
		},
		select: { id: true }
	});
	await db.outboxMail.deleteMany({
		where: {
			OR: [
				{ id: { lte: row.id - OUTBOX_KEEP } },
				{ createdAt: { lt: new Date(Date.now() - OUTBOX_DAYS * 86_400_000) } }
			]
		}
	});
}

export type OutboxReader = { ctx: ServiceContext; userEmail: string | null; enabled: boolean };

export const OutboxMailIdInput = z.object({ mailId: z.number().int().positive() });
export type OutboxMailIdInput = z.infer<typeof OutboxMailIdInput>;

const item = {
	id: z.number(),
	to: z.string(),
	subject: z.string(),
	created_at: z.string()
};
export const OutboxMailListOutput = z.object({
	enabled: z.boolean(),
	keep: z.number(), // newest mails kept
	days: z.number(), // and none older than this
	data: z.array(z.object(item))
});
export type OutboxMailListOutput = z.infer<typeof OutboxMailListOutput>;
export const OutboxMailOutput = z.object({ ...item, text: z.string() });
export type OutboxMailOutput = z.infer<typeof OutboxMailOutput>;

function readable(reader: OutboxReader): Prisma.OutboxMailWhereInput {
	const own: Prisma.OutboxMailWhereInput[] = [{ workspaceId: reader.ctx.workspace.id }];
	if (reader.userEmail) own.push({ workspaceId: null, to: reader.userEmail });
	return {
		OR: own,
		createdAt: { gte: new Date(Date.now() - OUTBOX_DAYS * 86_400_000) }
	};
}

export async function listOutboxMails(args: OutboxReader): Promise<OutboxMailListOutput> {
	requireScope(args.ctx, 'read');
	const base = { enabled: args.enabled, keep: OUTBOX_KEEP, days: OUTBOX_DAYS };
	if (!args.enabled) return { ...base, data: [] };
	const rows = await args.ctx.db.outboxMail.findMany({
		where: readable(args),
		orderBy: { id: 'desc' },
		take: OUTBOX_KEEP,
		select: { id: true, to: true, subject: true, createdAt: true }
	});
	return {
		...base,
		data: rows.map((r) => ({
			id: r.id,
			to: r.to,
			subject: r.subject,
			created_at: r.createdAt.toISOString()
		}))
	};
}

// Another workspace's mail, someone else's sign-in mail, or any mail when no outbox is kept:
// NOT_FOUND.
export async function getOutboxMail(
	args: OutboxReader & { input: OutboxMailIdInput }
): Promise<OutboxMailOutput> {
	requireScope(args.ctx, 'read');
	const { mailId } = parseInput(OutboxMailIdInput, args.input);
	const row = args.enabled
		? await args.ctx.db.outboxMail.findFirst({ where: { ...readable(args), id: mailId } })
		: null;
	if (!row) throw new NotFoundError('mail', mailId);
	return {
		id: row.id,
		to: row.to,
		subject: row.subject,
		text: row.text,
		created_at: row.createdAt.toISOString()
	};
}
