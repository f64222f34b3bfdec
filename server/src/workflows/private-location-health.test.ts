import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import cron from 'node-cron';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSmtp } from '../../test/servers.ts';
import type { Upstate } from '../app.ts';
import { createDb, type Db } from '../db/client.ts';
import { createPrivateLocation } from '../domain/private-location/index.ts';
import { createTestDb } from '../../test/db.ts';
import { createUser, createWorkspace, ctxFor } from '../../test/factories.ts';
import { createTestUpstate } from '../../test/upstate.ts';
import { createWorkflowsServer } from './index.ts';
import { JOBS, jobNamed, runJob, scheduleJobs } from './jobs.ts';

const SECRET = 'cron-test-secret';
const DASH = 'http://dash.test';
let db: Db;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let upstate: Upstate;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
	({ db } = await createTestDb());
	smtp = await startSmtp();
	upstate = createTestUpstate(db, {
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		CRON_SECRET: SECRET,
		NEXT_PUBLIC_URL: DASH
	});
	const server = createWorkflowsServer({ upstate }).listen(0, '127.0.0.1');
	await new Promise((r) => server.once('listening', r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	close = () => new Promise((r) => server.close(() => r()));
});
afterAll(async () => {
	await close();
	await smtp.close();
});

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
const health = (authorization?: string) =>
	fetch(`${base}/cron/private-location-health`, {
		headers: authorization ? { authorization } : {}
	});

// A workspace with two members and one location per given state.
async function workspaceWith(states: Array<{ status: string; lastSeenAt: Date | null }>) {
	const ws = await createWorkspace(db);
	const emails: string[] = [];
	for (const role of ['owner', 'member']) {
		const user = await createUser(db);
		await db.membership.create({ data: { workspaceId: ws.id, userId: user.id, role } });
		emails.push(user.email);
	}
	const ids: number[] = [];
	for (const [i, state] of states.entries()) {
		const loc = await createPrivateLocation({ ctx: ctxFor(db, ws), input: { name: `L${i}` } });
		await db.privateLocation.update({ where: { id: loc.id }, data: state });
		ids.push(loc.id);
	}
	return { ws, emails: emails.sort(), ids };
}
const statuses = async (ids: number[]) =>
	(await db.privateLocation.findMany({ where: { id: { in: ids } }, orderBy: { id: 'asc' } })).map(
		(l) => l.status
	);
const mailsTo = (emails: string[]) => smtp.mails.filter((m) => emails.includes(m.to));

async function captureLog<T>(fn: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
	const log = vi.spyOn(console, 'log').mockImplementation(() => {});
	try {
		const result = await fn();
		return { result, lines: log.mock.calls.map((c) => c.join(' ')) };
	} finally {
		log.mockRestore();
	}
}

describe('GET /cron/private-location-health (spec 4.3, 3.3)', () => {
	it('answers 401 without the bare CRON_SECRET and changes nothing', async () => {
		const { ws, emails, ids } = await workspaceWith([
			{ status: 'active', lastSeenAt: minutesAgo(30) }
		]);
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		try {
			for (const header of [undefined, 'wrong-secret', `Bearer ${SECRET}`, `${SECRET}x`]) {
				const res = await health(header);
				expect(res.status).toBe(401);
				expect(await res.json()).toEqual({
					error: { code: 'UNAUTHORIZED', message: 'Authorization must be the CRON_SECRET' }
				});
			}
			expect(warn.mock.calls.flat()).toContain(
				'[workflows] refused path=/cron/private-location-health reason=bad-cron-secret'
			);
		} finally {
			warn.mockRestore();
		}
		expect(await statuses(ids)).toEqual(['active']);
		expect(mailsTo(emails)).toEqual([]);
		expect(await db.auditLog.count({ where: { workspaceId: ws.id, actorType: 'system' } })).toBe(0);
		// Clean up for the next tests' counts: this location would go to error on the next run.
		await db.privateLocation.deleteMany({ where: { id: { in: ids } } });
	});

	it('moves locations both ways, mails the members, audits as system and logs one line with the counts', async () => {
		const { ws, emails, ids } = await workspaceWith([
			{ status: 'active', lastSeenAt: minutesAgo(16) }, // silent: to error
			{ status: 'error', lastSeenAt: minutesAgo(1) }, // reports again: to active
			{ status: 'active', lastSeenAt: minutesAgo(1) }, // healthy: unchanged
			{ status: 'unknown', lastSeenAt: null } // never reported: stays unknown
		]);
		const checked = await db.privateLocation.count();
		const { result: res, lines } = await captureLog(() => health(SECRET));
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ checked, toError: 1, toActive: 1 });
		expect(lines.filter((l) => l.startsWith('[workflows]'))).toEqual([
			`[workflows] private-location-health checked=${checked} toError=1 toActive=1`
		]);
		expect(await statuses(ids)).toEqual(['error', 'active', 'active', 'unknown']);
		const mails = mailsTo(emails);
		expect(mails.map((m) => `${m.to} ${m.subject}`).sort()).toEqual(
			emails
				.flatMap((e) => [
					`${e} Private location "L0" stopped reporting`,
					`${e} Private location "L1" is reporting again`
				])
				.sort()
		);
		expect(mails.find((m) => m.subject.includes('L0'))?.text).toContain(
			`${DASH}/private-locations/${ids[0]}`
		);
		const audit = await db.auditLog.findMany({
			where: { workspaceId: ws.id, actorType: 'system' },
			orderBy: { entityId: 'asc' }
		});
		expect(audit.map((a) => [a.actorId, a.action, Number(a.entityId)])).toEqual([
			['private-location-health', 'private_location.update', ids[0]],
			['private-location-health', 'private_location.update', ids[1]]
		]);
		// Nothing left to do: the next run changes and sends nothing.
		const again = await captureLog(async () => (await health(SECRET)).json());
		expect(again.result).toEqual({ checked, toError: 0, toActive: 0 });
		expect(mailsTo(emails)).toHaveLength(4);
	});

	it('never double-sends when the endpoint and the cron job run at once', async () => {
		const { emails, ids } = await workspaceWith([
			{ status: 'active', lastSeenAt: minutesAgo(20) },
			{ status: 'error', lastSeenAt: minutesAgo(2) }
		]);
		const job = jobNamed('private-location-health');
		const { result } = await captureLog(() =>
			Promise.all([
				health(SECRET).then((r) => r.json() as Promise<{ toError: number; toActive: number }>),
				health(SECRET).then((r) => r.json() as Promise<{ toError: number; toActive: number }>),
				runJob(upstate, job) as Promise<{ toError: number; toActive: number }>
			])
		);
		expect(result.reduce((n, r) => n + r.toError, 0)).toBe(1);
		expect(result.reduce((n, r) => n + r.toActive, 0)).toBe(1);
		expect(await statuses(ids)).toEqual(['error', 'active']);
		const mails = mailsTo(emails);
		expect(mails).toHaveLength(2 * emails.length);
		for (const email of emails) expect(mails.filter((m) => m.to === email)).toHaveLength(2);
	});

	it('answers 500 and logs one failure line when the run fails', async () => {
		// A database without the schema: every query of the run fails.
		const broken = createTestUpstate(
			createDb({ url: `file:${tmpdir()}/upstate-empty-${Date.now()}.db` }),
			{
				CRON_SECRET: SECRET
			}
		);
		const server = createWorkflowsServer({ upstate: broken }).listen(0, '127.0.0.1');
		await new Promise((r) => server.once('listening', r));
		const error = vi.spyOn(console, 'error').mockImplementation(() => {});
		try {
			const res = await fetch(
				`http://127.0.0.1:${(server.address() as AddressInfo).port}/cron/private-location-health`,
				{ headers: { authorization: SECRET } }
			);
			expect(res.status).toBe(500);
			expect(await res.json()).toEqual({
				error: {
					code: 'INTERNAL',
					message: 'private-location-health failed: see the workflows log'
				}
			});
			expect(error.mock.calls.map((c) => c.join(' '))).toContainEqual(
				expect.stringMatching(/^\[workflows\] private-location-health failed error=".+"$/)
			);
		} finally {
			error.mockRestore();
			await new Promise((r) => server.close(r));
			await broken.db.$disconnect();
		}
	});

	it('is scheduled every 5 minutes in the one list of jobs, and node-cron runs it', async () => {
		const job = JOBS.find((j) => j.name === 'private-location-health');
		expect(job?.schedule).toBe('*/5 * * * *');
		const scheduled = scheduleJobs(upstate);
		try {
			const task = [...cron.getTasks().values()].find((t) => t.name === 'private-location-health');
			expect(task?.getPattern()).toBe('*/5 * * * *');
			const next = task?.getNextRuns(3) ?? [];
			expect(next.map((d) => d.getMinutes() % 5)).toEqual([0, 0, 0]);
			expect(next[1].getTime() - next[0].getTime()).toBe(5 * 60_000);
			const { lines } = await captureLog(() => task?.execute() ?? Promise.resolve());
			expect(lines).toContainEqual(
				expect.stringMatching(
					/^\[workflows\] private-location-health checked=\d+ toError=0 toActive=0$/
				)
			);
		} finally {
			scheduled.stop();
		}
		expect(
			[...cron.getTasks().values()].filter((t) => t.name === 'private-location-health')
		).toEqual([]);
	});
});
