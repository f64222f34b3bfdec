import { isCancel, password } from '@clack/prompts';
import { createApi } from '../api.ts';
import { writeCredentials } from '../config.ts';
import { usageError } from '../errors.ts';
import { done, printJson, printRecord } from '../io.ts';
import type { Register } from '../program.ts';

export const registerAuth: Register = (program, wrap) => {
	program
		.command('login')
		.description('check an API key and keep it in your config dir (mode 0600)')
		.addHelpText(
			'after',
			'\nThe key is read from a prompt, or from stdin when piped: echo "$KEY" | upstate login'
		)
		.action(
			wrap(async (ctx) => {
				const conn = ctx.conn();
				let key: string;
				if (ctx.streams.isTTY) {
					const answer = await password({ message: `API key for ${conn.baseUrl}` });
					if (isCancel(answer)) throw usageError('login cancelled');
					key = answer;
				} else key = (await ctx.streams.stdin()).trim();
				if (!key)
					throw usageError(
						'no key given',
						'paste a key from the dashboard (Settings → API keys) or pipe it on stdin'
					);
				const api = createApi(conn.baseUrl, ctx.transportFor({ ...conn, apiKey: key }));
				const { workspace: me } = await api.call('workspace.whoami', undefined);
				const file = writeCredentials(ctx.env, {
					apiKey: key,
					...(conn.baseUrl !== 'http://localhost:3001' ? { baseUrl: conn.baseUrl } : {})
				});
				done(ctx.out, `Logged in to workspace ${me.name} (${me.slug}); key saved to ${file}`, {
					workspace: me,
					file
				});
			})
		);

	program
		.command('whoami')
		.description('the workspace, plan and key scope in use')
		.action(
			wrap(async (ctx) => {
				const api = ctx.api();
				const me = await api.call('workspace.whoami', undefined);
				if (ctx.out.json) return printJson(ctx.out, { ...me, base_url: api.baseUrl });
				printRecord(ctx.out, {
					workspace: `${me.workspace.name} (${me.workspace.slug}, id ${me.workspace.id})`,
					plan: me.workspace.plan,
					key: `${me.credential.id} (${me.credential.scope})`,
					server: api.baseUrl
				});
			})
		);
};
