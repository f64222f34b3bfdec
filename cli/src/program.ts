import { Command, CommanderError } from 'commander';
import { readEnv, type Connection } from './config.ts';
import type { Transport } from './api.ts';
import { registerAuth } from './commands/auth.ts';
import { registerCheck } from './commands/check.ts';
import { registerConfigAsCode } from './commands/config-as-code.ts';
import { registerResources } from './commands/resources.ts';
import { ctxFor, type Ctx } from './context.ts';
import { ApiError, CliError, EXIT } from './errors.ts';
import type { Streams } from './io.ts';
import pc from 'picocolors';

export const VERSION = '0.1.0';

export type RunOptions = {
	env: Record<string, string | undefined>;
	streams: Streams;
	connect: (conn: Connection) => Transport;
};

export type Action = (ctx: Ctx, ...args: never[]) => Promise<void | number>;
export type Register = (
	program: Command,
	wrap: (fn: Action) => (...args: unknown[]) => Promise<void>
) => void;

// Runs one command line; resolves with the exit code (README "CLI": 0 ok, 1 error, 2 usage,
// 3 drift). Nothing here calls process.exit, so tests run commands in-process.
export async function run(argv: string[], opts: RunOptions): Promise<number> {
	const env = readEnv(opts.env);
	const rt = { env, rawEnv: opts.env, streams: opts.streams, connect: opts.connect };
	let exitCode: number = EXIT.ok;
	let lastCtx: Ctx | null = null;
	const program = new Command('upstate')
		.description(
			'Upstate from the command line: monitors, status pages, incidents and config as code.'
		)
		.version(VERSION)
		.option('--json', 'print JSON (for scripts) instead of tables')
		.option('-q, --quiet', 'print nothing but errors')
		.option('--no-color', 'no colours (also NO_COLOR=1)')
		.option('--base-url <url>', 'API server (or UPSTATE_BASE_URL), default http://localhost:3001')
		.showSuggestionAfterError()
		.exitOverride()
		.configureOutput({
			writeOut: (s) => opts.streams.stdout(s),
			writeErr: (s) => opts.streams.stderr(s),
			outputError: (s, write) => write(s)
		})
		.addHelpText(
			'after',
			'\nThe API key comes from UPSTATE_API_KEY or `upstate login`.\nExit codes: 0 ok, 1 error, 2 usage, 3 drift (plan --exit-code).'
		);
	const wrap =
		(fn: Action) =>
		async (...args: unknown[]) => {
			const cmd = args[args.length - 1] as Command;
			const ctx = ctxFor(cmd, rt);
			lastCtx = ctx;
			const code = await fn(ctx, ...(args.slice(0, -1) as never[]));
			if (typeof code === 'number') exitCode = code;
		};
	registerAuth(program, wrap);
	registerResources(program, wrap);
	registerConfigAsCode(program, wrap);
	registerCheck(program, wrap);
	for (const cmd of allCommands(program))
		cmd.exitOverride().configureOutput(program.configureOutput());
	try {
		await program.parseAsync(argv, { from: 'user' });
		return exitCode;
	} catch (err) {
		if (err instanceof CommanderError) {
			if (['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(err.code))
				return EXIT.ok;
			// Commander has printed what is wrong; say where the right form is.
			opts.streams.stderr(
				'→ `upstate --help` lists the commands, `upstate <command> --help` their flags\n'
			);
			return EXIT.usage;
		}
		return report(err, opts.streams, lastCtx, env.NO_COLOR === undefined && opts.streams.isTTY);
	}
}

function allCommands(cmd: Command): Command[] {
	return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}

// Every error ends with what to do next. With --json, scripts get the error as JSON on stderr.
function report(err: unknown, streams: Streams, ctx: Ctx | null, tty: boolean): number {
	const c = pc.createColors(ctx ? ctx.out.color.isColorSupported : tty);
	if (!(err instanceof CliError)) {
		const message = err instanceof Error ? err.message : String(err);
		streams.stderr(
			`${c.red('error')} ${message}\n${c.dim('→ this is a bug in upstate: please report it with the command you ran')}\n`
		);
		return EXIT.error;
	}
	if (ctx?.out.json) {
		const body =
			err instanceof ApiError
				? { code: err.code, message: err.message, issues: err.issues }
				: { message: err.message };
		streams.stderr(`${JSON.stringify({ error: { ...body, hint: err.hint } })}\n`);
		return err.exitCode;
	}
	const issues =
		err instanceof ApiError && err.issues.length > 1
			? err.issues.map((i) => `\n  ${i.path ? `${i.path}: ` : ''}${i.message}`).join('')
			: '';
	const code = err instanceof ApiError ? `${err.code} ` : '';
	streams.stderr(
		`${c.red('error')} ${code}${err.message}${issues}\n${err.hint ? `${c.dim(`→ ${err.hint}`)}\n` : ''}`
	);
	return err.exitCode;
}
