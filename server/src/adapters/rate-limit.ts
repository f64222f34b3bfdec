import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import type { Actor } from '../domain/context.ts';
import type { ServiceError } from '../domain/errors.ts';
import { toServiceError } from '../router/errors.ts';
import type { TrpcContext } from '../router/trpc.ts';
import { clientAddress } from '../domain/status-page/public/client-address.ts';

// Spec 4.1, 7.2 and 8: one budget per credential, shared by REST and MCP (one process-wide
// limiter, keyed by the resolved actor), and one per client address for failed authentication.
export type RateVerdict = {
	allowed: boolean;
	retryAfterSeconds: number;
	headers: Record<string, string>; // RateLimit / RateLimit-Policy (IETF draft-ietf-httpapi-ratelimit-headers)
};

export type RateLimits = {
	// Charges `cost` (one per REST request, one per MCP tool call) to the actor's credential.
	chargeCredential(actor: Actor | undefined, cost: number): Promise<RateVerdict>;
	// Charges one failed authentication to the address.
	chargeAnonymous(origin: ClientOrigin): Promise<RateVerdict>;
	// Charges one OAuth registration or authorization request (no credential yet) to the address.
	chargeOAuth(origin: ClientOrigin): Promise<RateVerdict>;
};

// Where a request came from, as the transports see it (Express and Connect alike).
export type ClientOrigin = { socketAddress: string; forwardedFor: string | null };

export function originOf(req: {
	socket: { remoteAddress?: string };
	headers: Record<string, string | string[] | undefined>;
}): ClientOrigin {
	const forwarded = req.headers['x-forwarded-for'];
	return {
		socketAddress: req.socket.remoteAddress ?? '',
		forwardedFor: (Array.isArray(forwarded) ? forwarded.join(',') : forwarded) ?? null
	};
}

export function createRateLimits(args: {
	config: Config['rateLimit'];
	trustedProxyHops: number;
}): RateLimits {
	const { perCredential, anonymous, oauth, windowSeconds } = args.config;
	const credential = new RateLimiterMemory({ points: perCredential, duration: windowSeconds });
	const address = new RateLimiterMemory({ points: anonymous, duration: windowSeconds });
	const oauthAddress = new RateLimiterMemory({ points: oauth, duration: windowSeconds });
	const addressOf = (origin: ClientOrigin) =>
		clientAddress({ ...origin, trustedProxyHops: args.trustedProxyHops }) ?? 'unknown';
	const charge = async (
		limiter: RateLimiterMemory,
		policy: string,
		key: string,
		cost: number
	): Promise<RateVerdict> => {
		try {
			return verdict(policy, limiter.points, windowSeconds, await limiter.consume(key, cost), true);
		} catch (err) {
			if (!(err instanceof RateLimiterRes)) throw err;
			return verdict(policy, limiter.points, windowSeconds, err, false);
		}
	};
	return {
		chargeCredential: (actor, cost) =>
			charge(credential, 'credential', credentialKey(actor), Math.max(1, cost)),
		chargeAnonymous: (origin) => charge(address, 'anonymous', addressOf(origin), 1),
		chargeOAuth: (origin) => charge(oauthAddress, 'oauth', addressOf(origin), 1)
	};
}

export function credentialKey(actor: Actor | undefined): string {
	switch (actor?.type) {
		case undefined:
			return 'none';
		case 'apiKey':
			return `apiKey:${actor.keyId}`;
		case 'oauth':
			return `oauth:${actor.grantId}`;
		case 'user':
			return `user:${actor.userId}`;
		case 'system':
			return `system:${actor.job}`;
		case 'probe':
			return `probe:${actor.privateLocationId}`;
	}
}

function verdict(
	policy: string,
	quota: number,
	windowSeconds: number,
	res: RateLimiterRes,
	allowed: boolean
): RateVerdict {
	const resetSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
	return {
		allowed,
		retryAfterSeconds: resetSeconds,
		headers: {
			'RateLimit-Policy': `"${policy}";q=${quota};w=${windowSeconds}`,
			RateLimit: `"${policy}";r=${Math.max(0, res.remainingPoints)};t=${resetSeconds}`,
			...(allowed ? {} : { 'Retry-After': String(resetSeconds) })
		}
	};
}

export type Admission =
	| { ok: true; ctx: TrpcContext; headers: Record<string, string> }
	| { ok: false; limited: RateVerdict }
	| { ok: false; unauthorized: ServiceError };

// The one admission of REST, MCP and /rpc: the caller's credential, each failure charged to the
// client's address (`unauthorized`, or `limited` past that budget, so a flood of bad keys hears
// 429 while a valid credential from the same address still works), then `cost` charged to the
// credential's budget (`limited` past it; `headers` are the RateLimit ones to send). MCP weighs
// a request by its body, which it reads only after the credential: it passes `cost: 'later'` and
// charges with `chargeCall` once it knows.
export async function admit(args: {
	limits: RateLimits;
	origin: ClientOrigin;
	resolve: () => Promise<TrpcContext>;
	cost: number | 'later';
}): Promise<Admission> {
	let ctx: TrpcContext;
	try {
		ctx = await args.resolve();
	} catch (err) {
		const error = toServiceError(err);
		if (error.code !== 'UNAUTHORIZED') throw err;
		const verdict = await args.limits.chargeAnonymous(args.origin);
		if (!verdict.allowed) return { ok: false, limited: verdict };
		return { ok: false, unauthorized: error };
	}
	if (args.cost === 'later') return { ok: true, ctx, headers: {} };
	return chargeCall(args.limits, ctx, args.cost);
}

export async function chargeCall(
	limits: RateLimits,
	ctx: TrpcContext,
	cost: number
): Promise<
	| { ok: true; ctx: TrpcContext; headers: Record<string, string> }
	| { ok: false; limited: RateVerdict }
> {
	const verdict = await limits.chargeCredential(ctx.service?.actor, cost);
	return verdict.allowed
		? { ok: true, ctx, headers: verdict.headers }
		: { ok: false, limited: verdict };
}

export function limitMessage(verdict: RateVerdict): string {
	return `rate limit exceeded: retry after ${verdict.retryAfterSeconds} s (see the RateLimit-Policy header)`;
}
