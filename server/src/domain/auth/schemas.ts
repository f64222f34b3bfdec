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

export const MagicLinkState = z.object({
	state: z.enum(['valid', 'used', 'expired', 'unknown']),
	email: z.string().nullable()
});
export type MagicLinkState = z.infer<typeof MagicLinkState>;

// What a sign-in provider told us about the person (auth/providers.ts).
export const ProviderProfileInput = z.object({
	provider: z.string().min(1).max(64),
	subject: z.string().min(1).max(255),
	email: z.email().max(320).toLowerCase().nullable(),
	emailVerified: z.boolean()
});
export type ProviderProfileInput = z.input<typeof ProviderProfileInput>;

// Why a provider sign-in did not finish; the sign-in page explains each one.
export const SIGN_IN_FAILURES = [
	'cancelled',
	'expired',
	'provider',
	'unavailable',
	'unverified'
] as const;
export type SignInFailure = (typeof SIGN_IN_FAILURES)[number];

// What the browser keeps between leaving for the provider and coming back (an httpOnly cookie).
export const SignInFlow = z.object({
	provider: z.string().max(64),
	state: z.string().max(200),
	verifier: z.string().max(200),
	nonce: z.string().max(200).optional(),
	next: SafeNextPath.optional()
});
export type SignInFlow = z.infer<typeof SignInFlow>;

export const StartProviderSignInInput = z.object({
	provider: z.string().min(1).max(64),
	next: SafeNextPath.optional()
});
export type StartProviderSignInInput = z.infer<typeof StartProviderSignInInput>;

export const FinishProviderSignInInput = z.object({
	search: z.string().max(8192),
	flow: SignInFlow
});
export type FinishProviderSignInInput = z.infer<typeof FinishProviderSignInInput>;

export const FinishProviderSignInOutput = z.discriminatedUnion('ok', [
	z.object({ ok: z.literal(true), sessionId: z.string(), next: z.string().nullable() }),
	z.object({
		ok: z.literal(false),
		reason: z.enum(SIGN_IN_FAILURES),
		provider: z.string()
	})
]);
export type FinishProviderSignInOutput = z.infer<typeof FinishProviderSignInOutput>;
