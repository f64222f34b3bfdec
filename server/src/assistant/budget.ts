import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';

// How many chat messages a workspace may send per window (AI_CHAT_BUDGET_*), shared by its
// members: each message is up to 8 model calls on the operator's provider account. In memory,
// per process (the dashboard runs the chat), so counts start again on restart.
export type ChatBudget = {
	requests: number;
	windowSeconds: number;
	charge(workspaceId: number): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
};

export function createChatBudget(config: Config['chatBudget']): ChatBudget {
	const limiter = new RateLimiterMemory({
		points: config.requests,
		duration: config.windowSeconds
	});
	return {
		...config,
		async charge(workspaceId) {
			try {
				const res = await limiter.consume(`workspace:${workspaceId}`, 1);
				return { allowed: true, retryAfterSeconds: Math.ceil(res.msBeforeNext / 1000) };
			} catch (err) {
				if (!(err instanceof RateLimiterRes)) throw err;
				return {
					allowed: false,
					retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000))
				};
			}
		}
	};
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
// A duration in whole minutes when it is at least one, else in seconds.
const duration = (seconds: number) =>
	seconds < 60 ? plural(seconds, 'second') : plural(Math.ceil(seconds / 60), 'minute');

// The 429's text: the budget and when the workspace may chat again.
export function budgetMessage(budget: ChatBudget, retryAfterSeconds: number): string {
	const window =
		budget.windowSeconds % 60 === 0
			? duration(budget.windowSeconds)
			: plural(budget.windowSeconds, 'second');
	return `This workspace has used its ${budget.requests} assistant messages per ${window}: try again in ${duration(retryAfterSeconds)}.`;
}
