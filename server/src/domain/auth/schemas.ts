import { z } from 'zod';

// `next`: a path of the dashboard to land on after signing in (an invitation link, say, or an
// OAuth consent request, whose query carries a client's URLs: hence the length).
export const SafeNextPath = z
	.string()
	.max(4096)
	.regex(/^\/(?![/\\])[\w\-./?=&%]*$/, { error: 'must be a path of this site' });

export const RequestMagicLinkInput = z.object({
	email: z
		.email()
		.max(320)
		.transform((e) => e.toLowerCase()),
	next: SafeNextPath.optional()
});
export type RequestMagicLinkInput = z.input<typeof RequestMagicLinkInput>;

export const VerifyMagicLinkInput = z.object({ token: z.string().min(10).max(200) });
export type VerifyMagicLinkInput = z.infer<typeof VerifyMagicLinkInput>;
