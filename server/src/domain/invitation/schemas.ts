import { z } from 'zod';

export const InviteMemberInput = z.object({
	email: z
		.email()
		.max(320)
		.transform((e) => e.toLowerCase()),
	role: z.enum(['admin', 'member']).default('member')
});
export type InviteMemberInput = z.input<typeof InviteMemberInput>;

export const InvitationIdInput = z.object({ invitationId: z.number().int().positive() });
export type InvitationIdInput = z.infer<typeof InvitationIdInput>;

export const AcceptInvitationInput = z.object({ token: z.string().min(10).max(200) });
export type AcceptInvitationInput = z.infer<typeof AcceptInvitationInput>;

export const InvitationPreview = z.object({ workspace: z.string(), email: z.string() }).nullable();
export type InvitationPreview = z.infer<typeof InvitationPreview>;

export const InvitationOutput = z.object({
	id: z.number(),
	email: z.string(),
	role: z.enum(['admin', 'member']),
	expires_at: z.string(),
	created_at: z.string()
});
export type InvitationOutput = z.infer<typeof InvitationOutput>;
export const InvitationListOutput = z.object({ data: z.array(InvitationOutput) });
export type InvitationListOutput = z.infer<typeof InvitationListOutput>;
