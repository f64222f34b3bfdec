import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeTinybird } from '../../test/fake-tinybird.ts';
import { setupLocalAnalytics, writeTokenFile } from './local-setup.ts';
import { createTinybirdAnalytics } from './tinybird.ts';

const PROJECT_TOKEN = 'project-ws-token';
const fast = { pollMs: 1, log: () => {} };

async function fake(local: NonNullable<Parameters<typeof startFakeTinybird>[0]['local']>) {
	return startFakeTinybird({
		ingestToken: PROJECT_TOKEN,
		readToken: PROJECT_TOKEN,
		local
	});
}

describe('analytics setup against the local container (spec 1.4.2-1.4.4)', () => {
	it('creates the project workspace, deploys promoted to Live, verifies, and returns that workspace token', async () => {
		const tb = await fake({ workspaceName: 'upstate', exists: false, deploy: 'live', down: 2 });
		try {
			const { token } = await setupLocalAnalytics({ url: tb.url, ...fast });
			// the project workspace's token, not the listing's default-workspace token (spec 1.4.3)
			expect(token).toBe(PROJECT_TOKEN);
			expect(tb.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
				'GET /tokens 503',
				'GET /tokens 503',
				'GET /tokens 200',
				'GET /v1/user/workspaces 200',
				'POST /v1/workspaces 200',
				'GET /v1/user/workspaces 200',
				'GET /v1/deployments 404',
				'POST /v1/deploy 200',
				'GET /v1/deployments/d1 200',
				'GET /v0/pipes/endpoint__http_metrics_1d__v1.json 200'
			]);
			const [list, create, , , deploy, poll, verify] = tb.requests.slice(3);
			expect(list.query).toEqual({ with_organization: 'true', token: 'admin-token' });
			expect(create.authorization).toBe('Bearer user-token');
			expect(create.contentType).toBe('application/x-www-form-urlencoded');
			expect(new URLSearchParams(create.body).get('name')).toBe('upstate');
			expect(new URLSearchParams(create.body).get('assign_to_organization_id')).toBe('org-1');
			expect(deploy.query).toEqual({ auto_promote: 'true' });
			expect(deploy.authorization).toBe(`Bearer ${PROJECT_TOKEN}`);
			expect(deploy.contentType).toMatch(/^multipart\/form-data/);
			// every datasource and pipe of resources.ts, as the SDK's deploy sends them
			for (const file of [
				'check_result.datasource',
				'check_rollup_hour_mv.pipe',
				'endpoint__http_metrics_1d__v1.pipe'
			])
				expect(deploy.body).toContain(`name="data_project://"; filename="${file}"`);
			expect(poll.authorization).toBe(`Bearer ${PROJECT_TOKEN}`);
			expect(verify.query).toEqual({ monitorId: '1' });
			expect(verify.authorization).toBe(`Bearer ${PROJECT_TOKEN}`);
		} finally {
			await tb.close();
		}
	});

	it('reuses an existing project workspace', async () => {
		const tb = await fake({ workspaceName: 'upstate', exists: true, deploy: 'live' });
		try {
			await setupLocalAnalytics({ url: tb.url, ...fast });
			expect(tb.requests.some((r) => r.path === '/v1/workspaces')).toBe(false);
		} finally {
			await tb.close();
		}
	});

	it('deletes a deployment left in Staging before deploying, as the SDK does', async () => {
		const tb = await startFakeTinybird({
			ingestToken: PROJECT_TOKEN,
			readToken: PROJECT_TOKEN,
			deployments: [{ id: 'd0', status: 'data_ready', live: false }],
			local: { workspaceName: 'upstate', exists: true, deploy: 'live' }
		});
		try {
			await setupLocalAnalytics({ url: tb.url, ...fast });
			expect(tb.requests.slice(2, 5).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
				'GET /v1/deployments 200',
				'DELETE /v1/deployments/d0 200',
				'POST /v1/deploy 200'
			]);
		} finally {
			await tb.close();
		}
	});

	it('says nothing is deployed when the container reports no changes but no pipe answers', async () => {
		const tb = await startFakeTinybird({
			ingestToken: PROJECT_TOKEN,
			readToken: PROJECT_TOKEN,
			local: { workspaceName: 'upstate', exists: true, deploy: 'no_changes' }
		});
		try {
			await expect(setupLocalAnalytics({ url: tb.url, ...fast })).rejects.toThrow(
				/^pipe endpoint__http_metrics_1d__v1 does not exist for this token: nothing is deployed, or the token belongs to another workspace/
			);
		} finally {
			await tb.close();
		}
	});

	it('says to start the container when it does not answer', async () => {
		const tb = await fake({ workspaceName: 'upstate', exists: true, deploy: 'live', down: 1e9 });
		try {
			await expect(setupLocalAnalytics({ url: tb.url, waitMs: 5, ...fast })).rejects.toThrow(
				`the analytics container does not answer at ${tb.url}/tokens: start it (docker compose --profile analytics up -d analytics) and run the setup again`
			);
		} finally {
			await tb.close();
		}
	});

	it('says Staging, not Live, when the deployment is never promoted', async () => {
		const tb = await fake({ workspaceName: 'upstate', exists: true, deploy: 'staging' });
		try {
			await expect(setupLocalAnalytics({ url: tb.url, liveWaitMs: 20, ...fast })).rejects.toThrow(
				'deployment d1 is still data_ready (Staging, not Live) after 0.02 s: promote it (tb deployment promote) or run the setup again'
			);
			expect(tb.requests.some((r) => r.path.startsWith('/v0/pipes/'))).toBe(false);
		} finally {
			await tb.close();
		}
	});

	it('passes on the reason of a refused or deleted deployment', async () => {
		const refused = await fake({ workspaceName: 'upstate', exists: true, deploy: 'refused' });
		const deleted = await fake({ workspaceName: 'upstate', exists: true, deploy: 'deleted' });
		try {
			await expect(setupLocalAnalytics({ url: refused.url, ...fast })).rejects.toThrow(
				'the deployment was refused (400): check_result.datasource: bad engine: fix the resources and run the setup again'
			);
			await expect(setupLocalAnalytics({ url: deleted.url, ...fast })).rejects.toThrow(
				'deployment d1 failed and was deleted: bad engine: fix the resources and run the setup again'
			);
		} finally {
			await Promise.all([refused.close(), deleted.close()]);
		}
	});

	it('fails the verification with the doctor reading when the Live deployment has no pipe', async () => {
		const tb = await fake({ workspaceName: 'upstate', exists: true, deploy: 'live-without-pipe' });
		try {
			await expect(setupLocalAnalytics({ url: tb.url, ...fast })).rejects.toThrow(
				"the Live deployment has no pipe endpoint__http_metrics_1d__v1: deploy this version's resources (npm run analytics:setup)"
			);
			expect(tb.requests.slice(-2).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
				'GET /v0/pipes/endpoint__http_metrics_1d__v1.json 404',
				'GET /v1/deployments 200'
			]);
		} finally {
			await tb.close();
		}
	});

	it('feeds both tokens from the one file it writes, even to a service started before it', async () => {
		const tb = await fake({ workspaceName: 'upstate', exists: true, deploy: 'live' });
		const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'analytics-setup-')), 'token');
		const store = createTinybirdAnalytics({
			url: tb.url,
			apiKey: undefined,
			ingestToken: undefined,
			tokenFile: file
		});
		try {
			await expect(store.summary({ monitorId: 1, since: Date.now() - 86_400_000 })).rejects.toThrow(
				/does not exist/
			);
			const { token } = await setupLocalAnalytics({ url: tb.url, ...fast });
			writeTokenFile(file, token);
			tb.requests.length = 0;
			const result = {
				resultId: 'r-1',
				workspaceId: 1,
				monitorId: 1,
				locationId: 1,
				startedAt: Date.now(),
				latency: 12,
				outcome: 'success',
				statusCode: 200,
				error: '',
				timing: {},
				headers: {},
				assertions: '[]',
				grpcStatus: '',
				packetLoss: null
			} as const;
			expect(await store.insertResults([result])).toEqual({ accepted: 1, duplicates: 0 });
			// the deployed pipe answers (200, no row in this stand-in): the token was accepted
			await expect(store.summary({ monitorId: 1, since: Date.now() - 86_400_000 })).rejects.toThrow(
				/the pipe returned no row/
			);
			expect(tb.requests.map((r) => `${r.path} ${r.status} ${r.authorization}`)).toEqual([
				`/v0/events 202 Bearer ${PROJECT_TOKEN}`,
				`/v0/pipes/endpoint__http_metrics_1d__v1.json 200 Bearer ${PROJECT_TOKEN}`
			]);
		} finally {
			await tb.close();
		}
	});
});
