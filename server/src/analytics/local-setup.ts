import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runGenerate } from '@tinybirdco/sdk/cli/commands/generate';
import { z } from 'zod';
import { checkAnalytics } from '../doctor.ts';
import { loadAnalyticsSetupConfig, withTinybirdEnv } from '../config.ts';

// Spec 1.4.2-1.4.4 scripted for the local analytics container (`analytics-setup` in the compose
// file's `analytics` profile, or `npm run analytics:setup`): wait for the container, take the
// project workspace's token the way the analytics CLI's local info does, deploy the resources of
// tinybird/resources.ts promoted to Live, and run the verification query. The HTTP calls are the
// ones @tinybirdco/sdk makes: dist/api/local.js (GET /tokens, GET /v1/user/workspaces, POST
// /v1/workspaces) and dist/api/deploy.js (GET /v1/deployments and DELETE of the ones not Live,
// POST /v1/deploy?auto_promote=true, GET /v1/deployments/:id until `data_ready` and `live`).

export type SetupOptions = {
	url: string;
	workspace?: string; // the local workspace the project lives in (default `upstate`)
	waitMs?: number; // how long to wait for the container to answer (default 300 s: a first start takes a while)
	liveWaitMs?: number; // how long a deployment may take to be Live (default 5 min)
	pollMs?: number;
	log?: (line: string) => void;
};

export class SetupError extends Error {}

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const Tokens = z.object({
	user_token: z.string().min(1),
	admin_token: z.string().min(1),
	workspace_admin_token: z.string().min(1)
});
const Workspaces = z.object({
	workspaces: z.array(z.object({ id: z.string(), name: z.string(), token: z.string().min(1) })),
	organization_id: z.string().optional()
});
const Deployment = z.object({
	id: z.string(),
	status: z.string(),
	live: z.boolean().optional(),
	feedback: z.array(z.object({ level: z.string().optional(), message: z.string() })).optional()
});
const DeployResponse = z.object({
	result: z.string().optional(),
	deployment: Deployment.optional(),
	error: z.string().optional()
});

export async function setupLocalAnalytics(opts: SetupOptions): Promise<{ token: string }> {
	const url = opts.url.replace(/\/$/, '');
	const log = opts.log ?? ((line) => console.log(line));
	const pollMs = opts.pollMs ?? 2_000;
	const sleep = () => new Promise((r) => setTimeout(r, pollMs));
	const name = opts.workspace ?? 'upstate';

	// 1. The container answers its token listing once it is up.
	const deadline = Date.now() + (opts.waitMs ?? 300_000);
	let tokens: z.infer<typeof Tokens> | undefined;
	for (;;) {
		const res = await fetch(`${url}/tokens`).catch(() => undefined);
		const parsed = res?.ok ? Tokens.safeParse(await res.json().catch(() => null)) : undefined;
		if (parsed?.success) {
			tokens = parsed.data;
			break;
		}
		if (Date.now() >= deadline)
			throw new SetupError(
				`the analytics container does not answer at ${url}/tokens: start it (docker compose --profile analytics up -d analytics) and run the setup again`
			);
		await sleep();
	}
	log(`[analytics-setup] container=up url=${url}`);

	// 2. The project's own workspace and its token (the CLI's local info), never the listing's
	// workspace_admin_token, which belongs to the container's default workspace (spec 1.4.3).
	const listWorkspaces = async () => {
		const res = await fetch(
			`${url}/v1/user/workspaces?with_organization=true&token=${encodeURIComponent(tokens.admin_token)}`
		);
		const parsed = res.ok ? Workspaces.safeParse(await res.json()) : undefined;
		if (!parsed?.success)
			throw new SetupError(
				`the analytics container refused the workspace listing (${res.status}): recreate the container (docker compose --profile analytics up -d --force-recreate analytics) and run the setup again`
			);
		return parsed.data;
	};
	let listed = await listWorkspaces();
	let workspace = listed.workspaces.find((w) => w.name === name);
	if (!workspace) {
		const form = new URLSearchParams({ name });
		if (listed.organization_id) form.set('assign_to_organization_id', listed.organization_id);
		const res = await fetch(`${url}/v1/workspaces`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${tokens.user_token}`,
				'content-type': 'application/x-www-form-urlencoded'
			},
			body: form.toString()
		});
		if (!res.ok)
			throw new SetupError(
				`the analytics container did not create workspace ${name} (${res.status}): recreate the container and run the setup again`
			);
		listed = await listWorkspaces();
		workspace = listed.workspaces.find((w) => w.name === name);
		if (!workspace)
			throw new SetupError(
				`workspace ${name} was created but is not listed: recreate the container and run the setup again`
			);
	}
	const token = workspace.token;
	log(`[analytics-setup] workspace=${name} id=${workspace.id}`);

	// 3. Deploy the datafiles generated from resources.ts, promoted to Live by the server.
	const generated = await withTinybirdEnv({ url, token }, () => runGenerate({ cwd: SERVER_DIR }));
	if (!generated.success || !generated.artifacts)
		throw new SetupError(
			`the resources do not build: ${generated.error}: fix server/src/analytics/tinybird/resources.ts`
		);
	const form = new FormData();
	for (const a of generated.artifacts)
		form.append(
			'data_project://',
			new Blob([a.content], { type: 'text/plain' }),
			`${a.name}.${a.type}`
		);
	const auth = { authorization: `Bearer ${token}` };
	// As the SDK's deploy does first: a deployment left in Staging by an earlier run would block
	// this one, so every deployment that is not Live is deleted.
	const existing = await fetch(`${url}/v1/deployments`, { headers: auth });
	const list = z
		.object({ deployments: z.array(Deployment) })
		.safeParse(await existing.json().catch(() => null));
	for (const stale of list.success ? list.data.deployments.filter((d) => !d.live) : []) {
		await fetch(`${url}/v1/deployments/${stale.id}`, { method: 'DELETE', headers: auth });
		log(`[analytics-setup] deployment=${stale.id} status=${stale.status} deleted=staging`);
	}
	const res = await fetch(`${url}/v1/deploy?auto_promote=true`, {
		method: 'POST',
		headers: auth,
		body: form
	});
	const body = DeployResponse.safeParse(await res.json().catch(() => null));
	const errors = (d?: z.infer<typeof Deployment>) =>
		(d?.feedback ?? [])
			.filter((f) => f.level === 'ERROR')
			.map((f) => f.message)
			.join('; ');
	if (!res.ok || !body.success || body.data.result === 'failed')
		throw new SetupError(
			`the deployment was refused (${res.status}): ${(body.success && (body.data.error || errors(body.data.deployment))) || 'no reason given'}: fix the resources and run the setup again`
		);
	let deployment = body.data.deployment;
	if (body.data.result === 'no_changes' || !deployment) {
		log('[analytics-setup] deploy=no_changes');
	} else {
		log(`[analytics-setup] deploy=created id=${deployment.id}`);
		const liveWaitMs = opts.liveWaitMs ?? 5 * 60_000;
		const until = Date.now() + liveWaitMs;
		while (!(deployment.status === 'data_ready' && deployment.live)) {
			if (deployment.status === 'deleting' || deployment.status === 'deleted')
				throw new SetupError(
					`deployment ${deployment.id} failed and was deleted: ${errors(deployment) || 'no reason given'}: fix the resources and run the setup again`
				);
			if (Date.now() >= until)
				throw new SetupError(
					`deployment ${deployment.id} is still ${deployment.status}${deployment.live ? '' : ' (Staging, not Live)'} after ${liveWaitMs / 1000} s: promote it (tb deployment promote) or run the setup again`
				);
			await sleep();
			const poll = await fetch(`${url}/v1/deployments/${deployment.id}`, { headers: auth });
			const parsed = z
				.object({ deployment: Deployment })
				.safeParse(await poll.json().catch(() => null));
			if (!poll.ok || !parsed.success)
				throw new SetupError(
					`the container does not report deployment ${deployment.id} (${poll.status}): run the setup again`
				);
			deployment = parsed.data.deployment;
		}
		log(`[analytics-setup] deploy=live id=${deployment.id}`);
	}

	// 4. Spec 1.4.4's verification query, with the doctor's reading of a 404 (Staging, another
	// workspace's token, a Live deployment without the pipe).
	const verdict = await checkAnalytics({ analyticsUrl: url, analyticsToken: token });
	if (verdict.status !== 'ok') throw new SetupError(verdict.detail);
	log(`[analytics-setup] verify=ok ${verdict.detail}`);
	return { token };
}

// Written whole or not at all, readable by the app services' user only.
export function writeTokenFile(file: string, token: string) {
	const tmp = `${file}.tmp-${process.pid}`;
	writeFileSync(tmp, `${token}\n`, { mode: 0o600 });
	renameSync(tmp, file);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
	const { url, tokenFile: file } = loadAnalyticsSetupConfig();
	try {
		const { token } = await setupLocalAnalytics({ url });
		if (file) {
			writeTokenFile(file, token);
			console.log(
				`[analytics-setup] token_file=${file} (read as ANALYTICS_API_KEY and ANALYTICS_INGEST_TOKEN)`
			);
		} else {
			console.log(`[analytics-setup] put this line in .env, then docker compose up -d again:`);
			console.log(`ANALYTICS_TOKEN=${token}`);
		}
	} catch (err) {
		console.error(
			`[analytics-setup] failed: ${err instanceof SetupError ? err.message : String(err)}`
		);
		process.exit(1);
	}
}
