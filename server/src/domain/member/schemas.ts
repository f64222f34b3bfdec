import { z } from 'zod';

export const ROLES = ['owner', 'admin', 'member'] as const;

export const MemberOutput = z.object({
	user_id: z.number(),
	email: z.string(),
	role: z.enum(ROLES),
	created_at: z.string()
});
export type MemberOutput = z.infer<typeof MemberOutput>;
export const MemberListOutput = z.object({ data: z.array(MemberOutput) });
export type MemberListOutput = z.infer<typeof MemberListOutput>;

export const UpdateMemberRoleInput = z.object({
	userId: z.number().int().positive(),
	role: z.enum(ROLES)
});
export type UpdateMemberRoleInput = z.infer<typeof UpdateMemberRoleInput>;
export const MemberIdInput = z.object({ userId: z.number().int().positive() });
export type MemberIdInput = z.infer<typeof MemberIdInput>;
