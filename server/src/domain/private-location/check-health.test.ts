import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSmtp } from '../../../test/servers.ts';
import type { Db } from '../../db/client.ts';
import { createMailer, type Mailer } from '../../mail/index.ts';
import { createTestDb } from '../../../test/db.ts';
import { createTestUpstate } from '../../../test/upstate.ts';
import { ingestCheckResults } from '../check-result/index.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createUser, createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import {
	checkPrivateLocationHealth,
	createPrivateLocation,
	ensureLocalLocation,
	HEALTH_WINDOW_MS
} from './index.ts';

let db: Db;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let mailer: Mailer;
const DASH = 'http://dash.test';
const SYSTEM = { type: 'system', job: 'private-location-health' } as const;
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

beforeAll(async () => {
	({ db } = await createTestDb());
	smtp = await startSmtp();
	mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: 'Upstate <u@test>' });
});
afterAll(() => smtp.close());

// A workspace with two members (owner and member), as the dashboard creates them.
async function workspaceWithMembers() {
	const ws = await createWorkspace(db);
	const users = [await createUser(db), await createUser(db)];
	for (const [i, u] of users.entries())
		await db.membership.create({
			data: { workspaceId: ws.id, userId: u.id, role: i === 0 ? 'owner' : 'member' }
		});
	return { ws, emails: users.map((u) => u.email).sort() };
}

async function location(
	ws: Awaited<ReturnType<typeof createWorkspace>>,
	state: { name?: string; status: string; lastSeenAt: Date | null }
) {
	const loc = await createPrivateLocation({
		ctx: ctxFor(db, ws),
		input: { name: state.name ?? 'Office' }
	});
	await db.privateLocation.update({
		where: { id: loc.id },
		data: { status: state.status, lastSeenAt: state.lastSeenAt }
	});
	return loc;
}

const run = (ws: Awaited<ReturnType<typeof createWorkspace>>, now?: Date) =>
	checkPrivateLocationHealth({
		ctx: ctxFor(db, ws, SYSTEM),
		mailer,
		dashboardUrl: DASH,
		input: now ? { now } : undefined
	});
const statusOf = async (id: number) =>
	(await db.privateLocation.findUniqueOrThrow({ where: { id } })).status;
const mailsTo = (emails: string[]) => smtp.mails.filter((m) => emails.includes(m.to));
const healthAudit = (workspaceId: number) =>
	db.auditLog.findMany({
		where: { workspaceId, actorType: 'system' },
		orderBy: { id: 'asc' }
	});

describe('private location health (spec 3.3)', () => {
	it('turns an active location silent for over 15 minutes to error, mails each member and audits as system', async () => {
		const { ws, emails } = await workspaceWithMembers();
		const seen = minutesAgo(16);
		const stale = await location(ws, { name: 'Rack <7>', status: 'active', lastSeenAt: seen });
		const fresh = await location(ws, { status: 'active', lastSeenAt: minutesAgo(1) });
		expect(await run(ws)).toEqual({ checked: 2, toError: 1, toActive: 0 });
		expect(await statusOf(stale.id)).toBe('error');
		expect(await statusOf(fresh.id)).toBe('active');
		const mails = mailsTo(emails);
		expect(mails.map((m) => m.to).sort()).toEqual(emails);
		const seenText = `${seen.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
		for (const m of mails) {
			expect(m.subject).toBe('Private location "Rack <7>" stopped reporting');
			expect(m.text).toContain(`Private location "Rack <7>" in workspace "${ws.name}"`);
			expect(m.text).toContain('status changed from active to error');
			expect(m.text).toContain(`Last seen: ${seenText}`);
			expect(m.text).toContain(`${DASH}/private-locations/${stale.id}`);
		}
		const audit = await healthAudit(ws.id);
		expect(audit).toHaveLength(1);
		expect(audit[0]).toMatchObject({
			actorType: 'system',
			actorId: 'private-location-health',
			actorUserId: null,
			action: 'private_location.update',
			entityType: 'private_location',
			entityId: String(stale.id),
			changedFields: '["status"]'
		});
		expect(JSON.parse(audit[0].before ?? '{}')).toMatchObject({ status: 'active' });
		expect(JSON.parse(audit[0].after ?? '{}')).toMatchObject({
			status: 'error',
			last_seen_at: seen.toISOString()
		});
		expect(JSON.stringify(audit)).not.toContain(stale.token);
		// A second run finds nothing to do and sends nothing.
		expect(await run(ws)).toEqual({ checked: 2, toError: 0, toActive: 0 });
		expect(mailsTo(emails)).toHaveLength(2);
	});

	it('brings an error location that reports again back to active with a recovery mail', async () => {
		const { ws, emails } = await workspaceWithMembers();
		const loc = await location(ws, { name: 'Office', status: 'error', lastSeenAt: minutesAgo(2) });
		expect(await run(ws)).toEqual({ checked: 1, toError: 0, toActive: 1 });
		expect(await statusOf(loc.id)).toBe('active');
		const mails = mailsTo(emails);
		expect(mails.map((m) => m.to).sort()).toEqual(emails);
		for (const m of mails) {
			expect(m.subject).toBe('Private location "Office" is reporting again');
			expect(m.text).toContain('status changed from error to active');
			expect(m.text).toContain(`${DASH}/private-locations/${loc.id}`);
		}
		const audit = await healthAudit(ws.id);
		expect(
			audit.map((a) => [JSON.parse(a.before ?? '{}').status, JSON.parse(a.after ?? '{}').status])
		).toEqual([['error', 'active']]);
	});

	it('leaves the status to the cron: a report through ingest only refreshes last_seen_at', async () => {
		const { ws, emails } = await workspaceWithMembers();
		const loc = await location(ws, { name: 'Edge', status: 'error', lastSeenAt: minutesAgo(60) });
		await ingestCheckResults({
			db,
			analytics: createTestUpstate(db).analytics,
			location: { privateLocationId: loc.id, workspaceId: ws.id, name: loc.name },
			input: { results: [] }
		});
		const reported = await db.privateLocation.findUniqueOrThrow({ where: { id: loc.id } });
		expect(reported.status).toBe('error');
		expect(Date.now() - (reported.lastSeenAt?.getTime() ?? 0)).toBeLessThan(60_000);
		expect(mailsTo(emails)).toEqual([]);
		expect(await run(ws)).toEqual({ checked: 1, toError: 0, toActive: 1 });
		expect(mailsTo(emails).map((m) => m.subject)).toEqual([
			'Private location "Edge" is reporting again',
			'Private location "Edge" is reporting again'
		]);
	});

	it('keeps a never-reported location unknown (Local included), makes it active on its first report and error when that report is old', async () => {
		const { ws, emails } = await workspaceWithMembers();
		await db.$transaction((tx) => ensureLocalLocation({ tx, workspaceId: ws.id }));
		const local = await db.privateLocation.findFirstOrThrow({
			where: { workspaceId: ws.id, builtIn: true }
		});
		await db.privateLocation.update({
			where: { id: local.id },
			data: { createdAt: minutesAgo(60) }
		});
		const never = await location(ws, { name: 'Never', status: 'unknown', lastSeenAt: null });
		const once = await location(ws, {
			name: 'Once',
			status: 'unknown',
			lastSeenAt: minutesAgo(30)
		});
		expect(await run(ws)).toEqual({ checked: 3, toError: 1, toActive: 0 });
		expect([await statusOf(local.id), await statusOf(never.id), await statusOf(once.id)]).toEqual([
			'unknown',
			'unknown',
			'error'
		]);
		// The Local probe reports (ingest only refreshes last_seen_at); the next run notices.
		await db.privateLocation.update({ where: { id: local.id }, data: { lastSeenAt: new Date() } });
		expect(await run(ws)).toEqual({ checked: 3, toError: 0, toActive: 1 });
		expect(await statusOf(local.id)).toBe('active');
		expect(mailsTo(emails).map((m) => m.subject)).toEqual([
			'Private location "Once" stopped reporting',
			'Private location "Once" stopped reporting',
			'Private location "Local" started reporting',
			'Private location "Local" started reporting'
		]);
	});

	it('uses a 15-minute window: a report exactly 15 minutes old still counts', async () => {
		const { ws } = await workspaceWithMembers();
		const now = new Date('2026-11-22T12:00:00Z');
		const edge = await location(ws, {
			status: 'active',
			lastSeenAt: new Date(now.getTime() - HEALTH_WINDOW_MS)
		});
		const past = await location(ws, {
			status: 'active',
			lastSeenAt: new Date(now.getTime() - HEALTH_WINDOW_MS - 1)
		});
		expect(await run(ws, now)).toEqual({ checked: 2, toError: 1, toActive: 0 });
		expect([await statusOf(edge.id), await statusOf(past.id)]).toEqual(['active', 'error']);
	});

	it('sends one mail per member per transition when runs overlap', async () => {
		const { ws, emails } = await workspaceWithMembers();
		const down = [
			await location(ws, { name: 'A', status: 'active', lastSeenAt: minutesAgo(20) }),
			await location(ws, { name: 'B', status: 'active', lastSeenAt: minutesAgo(40) })
		];
		const up = await location(ws, { name: 'C', status: 'error', lastSeenAt: minutesAgo(1) });
		// All three read the same statuses before any of them changes one.
		const results = await Promise.all([run(ws), run(ws), run(ws)]);
		expect(results.map((r) => r.checked)).toEqual([3, 3, 3]);
		expect(results.reduce((n, r) => n + r.toError, 0)).toBe(2);
		expect(results.reduce((n, r) => n + r.toActive, 0)).toBe(1);
		expect(await Promise.all(down.map((l) => statusOf(l.id)))).toEqual(['error', 'error']);
		expect(await statusOf(up.id)).toBe('active');
		const mails = mailsTo(emails);
		expect(mails).toHaveLength(3 * emails.length);
		for (const subject of [
			'Private location "A" stopped reporting',
			'Private location "B" stopped reporting',
			'Private location "C" is reporting again'
		])
			expect(
				mails
					.filter((m) => m.subject === subject)
					.map((m) => m.to)
					.sort()
			).toEqual(emails);
		expect(await healthAudit(ws.id)).toHaveLength(3);
	});

	it('keeps the transition and its audit entry when a mail cannot be sent, and logs it', async () => {
		const { ws } = await workspaceWithMembers();
		const loc = await location(ws, { status: 'active', lastSeenAt: minutesAgo(20) });
		const closed = await startSmtp();
		await closed.close(); // a real SMTP address that refuses connections
		const error = vi.spyOn(console, 'error').mockImplementation(() => {});
		try {
			const result = await checkPrivateLocationHealth({
				ctx: ctxFor(db, ws, SYSTEM),
				mailer: createMailer({ smtpUrl: `smtp://127.0.0.1:${closed.port}`, from: 'u@test' }),
				dashboardUrl: DASH
			});
			expect(result).toEqual({ checked: 1, toError: 1, toActive: 0 });
			expect(error.mock.calls.flat().join('\n')).toMatch(
				new RegExp(
					`^\\[private-location\\] mail failed locationId=${loc.id} to=\\S+ error=".+"$`,
					'm'
				)
			);
		} finally {
			error.mockRestore();
		}
		expect(await statusOf(loc.id)).toBe('error');
		expect(await healthAudit(ws.id)).toHaveLength(1);
	});

	it('only touches the locations of its own workspace', async () => {
		const mine = await workspaceWithMembers();
		const theirs = await workspaceWithMembers();
		const theirLoc = await location(theirs.ws, { status: 'active', lastSeenAt: minutesAgo(30) });
		expect(await run(mine.ws)).toEqual({ checked: 0, toError: 0, toActive: 0 });
		expect(await statusOf(theirLoc.id)).toBe('active');
		expect(mailsTo([...mine.emails, ...theirs.emails])).toEqual([]);
	});

	it('rejects read-only key', async () => {
		const { ws, emails } = await workspaceWithMembers();
		const loc = await location(ws, { status: 'active', lastSeenAt: minutesAgo(30) });
		expect(
			await codeOf(
				checkPrivateLocationHealth({ ctx: ctxFor(db, ws, readKey()), mailer, dashboardUrl: DASH })
			)
		).toMatch(/^FORBIDDEN/);
		expect(await statusOf(loc.id)).toBe('active');
		expect(mailsTo(emails)).toEqual([]);
	});

	it('leaves nothing behind on invalid input', async () => {
		const { ws, emails } = await workspaceWithMembers();
		const loc = await location(ws, { status: 'active', lastSeenAt: minutesAgo(30) });
		expect(
			await codeOf(
				checkPrivateLocationHealth({
					ctx: ctxFor(db, ws, SYSTEM),
					mailer,
					dashboardUrl: DASH,
					input: { now: 'not a date' }
				})
			)
		).toMatch(/^VALIDATION: now/);
		expect(await statusOf(loc.id)).toBe('active');
		expect(await healthAudit(ws.id)).toEqual([]);
		expect(mailsTo(emails)).toEqual([]);
	});
});
