import { z } from 'zod';

export const RequestMagicLinkInput = z.object({ email: z.email().max(320).transform((e) => e.toLowerCase()) });
export type RequestMagicLinkInput = z.input<typeof RequestMagicLinkInput>;

export const VerifyMagicLinkInput = z.object({ token: z.string().min(10).max(200) });
export type VerifyMagicLinkInput = z.infer<typeof VerifyMagicLinkInput>;
