import OpenAI from 'openai';
import type {
	ChatCompletionMessageParam,
	ChatCompletionTool
} from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { Upstate } from '../app.ts';
import type { AiProvider } from '../config.ts';
import { memberRole } from '../domain/context.ts';
import { ServiceError } from '../domain/errors.ts';
import { buildTools, visibleTools, type McpTool } from '../adapters/mcp/tools.ts';
import { callProcedure } from '../adapters/procedures.ts';
import type { TrpcContext } from '../router/trpc.ts';
import { toServiceError } from '../router/errors.ts';
import { budgetMessage } from './budget.ts';
import { DOCS_TOOLS, docsSite, runDocsTool, type DocsSite } from './docs.ts';

// The dashboard assistant: an OpenAI-compatible model driving the MCP tool definitions, each
// call run through the router as the signed-in user (scope, role, tenancy stay the router's).

export const MAX_TOOL_ROUNDS = 8;
export const MAX_MESSAGE_CHARS = 8000;
export const MAX_MESSAGES = 40;

export const ChatRequest = z.object({
	messages: z
		.array(
			z.object({
				role: z.enum(['user', 'assistant']),
				content: z.string().trim().min(1).max(MAX_MESSAGE_CHARS)
			})
		)
		.min(1)
		.max(MAX_MESSAGES)
		.refine((m) => m.at(-1)?.role === 'user', 'the last message must be the user’s'),
	// Spec 4.1 rule 7: the human toggle, never the model, decides whether subscribers are told.
	notify: z.boolean().default(false)
});
export type ChatRequest = z.infer<typeof ChatRequest>;

export type ToolCallRecord = { name: string; ok: boolean; error?: string; held?: boolean };

// The chat-workspace agent's human toggle: a publishing call is not run but handed here; the
// answer (what the human is asked) goes back to the model. The call runs later via runHeldTool.
export type HoldPublishing = (call: {
	name: string;
	input: Record<string, unknown>;
}) => Promise<string>;
export type ChatReply = { reply: string; toolCalls: ToolCallRecord[] };

// The model provider failed or answered unusably: the endpoint's 502.
export class ChatProviderError extends Error {}
// No AI_BASE_URL / AI_GATEWAY_API_KEY: the endpoint's 503.
export class ChatNotConfigured extends Error {}
// Over the workspace's chat budget: the endpoint's 429 (with Retry-After).
export class ChatBudgetExceeded extends Error {
	readonly retryAfterSeconds: number;
	constructor(message: string, retryAfterSeconds: number) {
		super(message);
		this.retryAfterSeconds = retryAfterSeconds;
	}
}

const SYSTEM = [
	'You are the Upstate assistant inside the dashboard of one workspace.',
	'Use the tools to read and change monitors, status pages, status reports and maintenances.',
	'Ids come from the list_ tools; never guess them. Report tool errors plainly.',
	'For how Upstate works, use search_docs and get_doc_page and cite the page url.',
	'Whether subscribers are notified is decided by the user’s toggle, not by you.'
].join(' ');

let cachedTools: McpTool[] | undefined;

// What the model is offered for one tool: its MCP definition with `notify` removed from the
// schema of the publishing tools (spec 4.1 rule 7).
export function toModelTool(t: McpTool): ChatCompletionTool {
	const schema = t.tool.inputSchema as {
		properties?: Record<string, unknown>;
		required?: string[];
	} & Record<string, unknown>;
	const { notify: _notify, ...properties } = schema.properties ?? {};
	const required = (schema.required ?? []).filter((r) => r !== 'notify');
	return {
		type: 'function',
		function: {
			name: t.tool.name,
			description: t.tool.description,
			parameters: { ...schema, properties, required }
		}
	};
}

const takesNotify = (t: McpTool) =>
	Object.hasOwn(
		(t.tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {},
		'notify'
	);

// Spec 2.1: the gateway's smaller model for free workspaces, the stronger one for every other
// plan (self-host included); AI_BASE_URL has one model for all.
export const modelFor = (provider: AiProvider, plan: string) =>
	plan === 'free' ? provider.models.free : provider.models.paid;

export type ChatEvent =
	| { type: 'delta'; text: string } // answer text as the model writes it
	| ({ type: 'tool' } & ToolCallRecord); // one tool call, once it has run

// A chat admitted to run: signed in, provider configured, within the workspace's budget.
export type OpenChat = {
	run(opts?: { onEvent?: (e: ChatEvent) => void; signal?: AbortSignal }): Promise<ChatReply>;
};

// The checks before any model call (the endpoint answers them before it starts a stream):
// UNAUTHORIZED without a workspace, ChatNotConfigured, ChatBudgetExceeded (the message says when).
export async function openChat(args: {
	ctx: TrpcContext;
	upstate: Upstate;
	request: ChatRequest;
	tools?: McpTool[];
	hold?: HoldPublishing;
	surface?: string; // replaces "inside the dashboard of one workspace" in the system prompt
}): Promise<OpenChat> {
	const { ctx, upstate, request } = args;
	const service = ctx.service;
	if (!service) throw new ServiceError('UNAUTHORIZED', 'sign in to use the assistant');
	const provider = upstate.config.ai;
	if (!provider) throw new ChatNotConfigured('Chat is not configured');
	const charged = await upstate.chatBudget.charge(service.workspace.id);
	if (!charged.allowed)
		throw new ChatBudgetExceeded(
			budgetMessage(upstate.chatBudget, charged.retryAfterSeconds),
			charged.retryAfterSeconds
		);
	const all = () => args.tools ?? (cachedTools ??= buildTools());
	return {
		run: (opts = {}) =>
			chatLoop({
				ctx,
				plan: service.workspace.plan,
				provider,
				request,
				// The tools the caller may see (spec 5.2 and plan features); the router checks again.
				tools: visibleTools(all(), service),
				docs: docsSite(upstate.config.urls, all),
				hold: args.hold,
				system: args.surface
					? SYSTEM.replace('inside the dashboard of one workspace', args.surface)
					: SYSTEM,
				...opts
			})
	};
}

export async function runChat(args: {
	ctx: TrpcContext;
	upstate: Upstate;
	request: ChatRequest;
	tools?: McpTool[];
}): Promise<ChatReply> {
	return (await openChat(args)).run();
}

async function chatLoop(args: {
	ctx: TrpcContext;
	plan: string;
	provider: AiProvider;
	request: ChatRequest;
	tools: McpTool[];
	docs: DocsSite;
	hold?: HoldPublishing;
	system: string;
	onEvent?: (e: ChatEvent) => void;
	signal?: AbortSignal;
}): Promise<ChatReply> {
	const { ctx, provider, request, tools, docs } = args;
	const emit = args.onEvent ?? (() => {});
	const model = modelFor(provider, args.plan);
	const client = new OpenAI({
		baseURL: provider.baseUrl,
		apiKey: provider.apiKey || 'keyless',
		organization: null,
		project: null,
		maxRetries: 1,
		timeout: 60_000
	});
	const messages: ChatCompletionMessageParam[] = [
		{ role: 'system', content: args.system },
		...request.messages
	];
	const toolCalls: ToolCallRecord[] = [];
	const offered = [...tools.map(toModelTool), ...DOCS_TOOLS];
	for (let round = 0; round <= MAX_TOOL_ROUNDS; round++) {
		const offer = round < MAX_TOOL_ROUNDS ? offered : undefined;
		let choice;
		try {
			// Streamed always: text reaches the page as it is written; the JSON answer waits for it.
			const stream = client.chat.completions.stream(
				{ model, messages, ...(offer ? { tools: offer } : {}) },
				{ signal: args.signal }
			);
			stream.on('content', (text) => text && emit({ type: 'delta', text }));
			const completion = await stream.finalChatCompletion();
			choice = completion.choices?.[0]?.message;
		} catch (err) {
			throw new ChatProviderError(providerMessage(err));
		}
		if (!choice) throw new ChatProviderError('the model provider answered with no message');
		const calls = (choice.tool_calls ?? []).filter((c) => c.type === 'function');
		// Never an empty turn: the conversation is sent back next time and empty messages are refused.
		if (!calls.length)
			return { reply: choice.content?.trim() || '(The model gave no answer.)', toolCalls };
		// The last round offers no tools: calls then are not run.
		if (!offer)
			throw new ChatProviderError(`the model kept calling tools after ${MAX_TOOL_ROUNDS} rounds`);
		messages.push({ role: 'assistant', content: choice.content ?? null, tool_calls: calls });
		for (const call of calls) {
			const result = await runTool(
				ctx,
				tools,
				docs,
				call.function.name,
				call.function.arguments,
				request,
				args.hold
			);
			toolCalls.push(result.record);
			emit({ type: 'tool', ...result.record });
			messages.push({ role: 'tool', tool_call_id: call.id, content: result.content });
		}
	}
	throw new ChatProviderError('unreachable: the last round returns or throws');
}

async function runTool(
	ctx: TrpcContext,
	tools: McpTool[],
	docs: DocsSite,
	name: string,
	rawArgs: string,
	request: ChatRequest,
	hold?: HoldPublishing
): Promise<{ record: ToolCallRecord; content: string }> {
	const fail = (code: string, message: string) => ({
		record: { name, ok: false, error: `${code}: ${message}` },
		content: JSON.stringify({ error: { code, message } })
	});
	let input: unknown;
	try {
		input = rawArgs.trim() ? JSON.parse(rawArgs) : {};
	} catch {
		return fail('VALIDATION', 'the arguments are not valid JSON');
	}
	if (typeof input !== 'object' || input === null || Array.isArray(input))
		return fail('VALIDATION', 'the arguments must be a JSON object');
	const doc = await runDocsTool(docs, name, input);
	if (doc)
		return {
			record: { name, ok: doc.ok, ...(doc.error ? { error: doc.error } : {}) },
			content: JSON.stringify(doc.content)
		};
	const entry = tools.find((t) => t.tool.name === name);
	if (!entry) return fail('NOT_FOUND', `no tool named ${name}`);
	if (hold && takesNotify(entry)) {
		const { notify: _notify, ...held } = input as Record<string, unknown>;
		const message = await hold({ name, input: held });
		return {
			record: { name, ok: true, held: true },
			content: JSON.stringify({ held: true, message })
		};
	}
	const out = await callTool(ctx, entry, input, request.notify);
	return out.ok
		? { record: { name, ok: true }, content: JSON.stringify(out.result) }
		: fail(out.code, out.message);
}

type ToolOutcome =
	{ ok: true; result: Record<string, unknown> } | { ok: false; code: string; message: string };

// One MCP tool through the router as ctx; `notify` (publishing tools only) is the human's choice,
// whatever the model put there.
async function callTool(
	ctx: TrpcContext,
	entry: McpTool,
	input: object,
	notify: boolean
): Promise<ToolOutcome> {
	const withNotify = takesNotify(entry) ? { ...input, notify } : input;
	try {
		// A chat runs for many rounds (a held Slack call for minutes): the member's role is read
		// again before each call, so a removed or demoted member acts no longer or with less.
		const member = await currentMember(ctx);
		const output = (await callProcedure(member, entry.procedure.path, withNotify)) as Record<
			string,
			unknown
		>;
		const omit = entry.procedure.meta.mcp?.omit ?? [];
		const result = Object.fromEntries(Object.entries(output).filter(([k]) => !omit.includes(k)));
		return { ok: true, result };
	} catch (err) {
		const e = toServiceError(err);
		if (e.code === 'INTERNAL')
			console.error(
				`[assistant] tool ${entry.tool.name} failed ${e.cause instanceof Error ? e.cause.stack : String(e.cause)}`
			);
		return { ok: false, code: e.code, message: e.message };
	}
}

async function currentMember(ctx: TrpcContext): Promise<TrpcContext> {
	const service = ctx.service;
	if (service?.actor.type !== 'user') return ctx;
	const role = await memberRole(service, service.actor.userId);
	if (!role)
		throw new ServiceError(
			'UNAUTHORIZED',
			'you are no longer a member of this workspace: ask an owner or admin to invite you again'
		);
	return { ...ctx, service: { ...service, actor: { ...service.actor, role } } };
}

// A call held for the human (HoldPublishing), run now as ctx with the human's notify choice.
export async function runHeldTool(
	ctx: TrpcContext,
	name: string,
	input: Record<string, unknown>,
	notify: boolean
): Promise<ToolOutcome> {
	if (!ctx.service) return { ok: false, code: 'UNAUTHORIZED', message: 'no workspace member' };
	const entry = visibleTools((cachedTools ??= buildTools()), ctx.service).find(
		(t) => t.tool.name === name
	);
	if (!entry) return { ok: false, code: 'NOT_FOUND', message: `no tool named ${name}` };
	return callTool(ctx, entry, input, notify);
}

// Publishing tools: the MCP tools whose input takes `notify` (spec 4.1 rule 7).
export const isPublishingTool = (name: string) =>
	(cachedTools ??= buildTools()).some((t) => t.tool.name === name && takesNotify(t));

function providerMessage(err: unknown): string {
	if (err instanceof OpenAI.APIConnectionError)
		return 'the model provider could not be reached: check AI_BASE_URL';
	if (err instanceof OpenAI.APIError)
		return `the model provider answered ${err.status ?? 'an error'}${err.message ? ` (${err.message})` : ''}: check AI_API_KEY and AI_MODEL`;
	return `the model provider failed: ${err instanceof Error ? err.message : String(err)}`;
}
