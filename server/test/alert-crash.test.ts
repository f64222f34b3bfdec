import { afterEach, describe, expect, it } from 'vitest';
import { startCrashRig, until } from './crash-stack.ts';

// SIGKILL of the real server at each point of the status-change path (UPSTATE_TEST_CRASH_AT),
// a restart on the same data dir, and the exact webhooks a real receiver gets. The test reports
// results as the probe does: a batch the server died on is sent again after the restart.
let rig: Awaited<ReturnType<typeof startCrashRig>> | undefined;
afterEach(async () => {
	await rig?.stop();
	rig = undefined;
});

async function incidentOf(r: NonNullable<typeof rig>) {
	return r.db.incident.findFirstOrThrow({ where: { monitorId: r.monitor.id } });
}
const settle = (r: NonNullable<typeof rig>) => until(() => r.settled(), 'the outbox to settle');

describe('alerts across server crashes', { timeout: 120_000 }, () => {
	it('killed right after the error status commit: the incident and its alert follow on restart, then the recovery', async () => {
		rig = await startCrashRig();
		await rig.restart('after-status-commit:error');
		const failed = rig.result('error');
		expect(await rig.report(failed)).toBeNull();
		expect(await rig.killedBySelf()).toBe('SIGKILL');
		expect((await rig.db.monitor.findUniqueOrThrow({ where: { id: rig.monitor.id } })).status).toBe(
			'error'
		);
		expect(await rig.db.incident.count({ where: { monitorId: rig.monitor.id } })).toBe(0);
		await rig.restart();
		expect(await rig.report(failed)).toMatchObject({ accepted: 0, duplicates: 1 });
		// The target recovers before anyone looked: the short failure is still an incident.
		expect(await rig.report(rig.result('success'))).toMatchObject({ accepted: 1 });
		await until(() => rig!.receiver.requests.length >= 2, 'two webhooks');
		await settle(rig);
		const incident = await incidentOf(rig);
		expect(rig.events()).toEqual([`alert#${incident.id}`, `recovery#${incident.id}`]);
		expect(incident).toMatchObject({ autoResolved: true, errorMessage: 'HTTP 500' });
		expect(incident.resolvedAt).not.toBeNull();
		expect(await rig.incidentAudit()).toEqual([
			`incident.open#${incident.id}`,
			`incident.resolve#${incident.id}`
		]);
	});

	it('killed with the incident open but not notified: the alert goes out once on restart', async () => {
		rig = await startCrashRig();
		await rig.restart('after-incident-commit:opened');
		expect(await rig.report(rig.result('error'))).toBeNull();
		expect(await rig.killedBySelf()).toBe('SIGKILL');
		const incident = await incidentOf(rig);
		expect(rig.receiver.requests).toHaveLength(0);
		await rig.restart();
		await until(() => rig!.receiver.requests.length >= 1, 'the alert');
		await settle(rig);
		expect(rig.events()).toEqual([`alert#${incident.id}`]);
		await rig.report(rig.result('success'));
		await until(() => rig!.receiver.requests.length >= 2, 'the recovery');
		await settle(rig);
		expect(rig.events()).toEqual([`alert#${incident.id}`, `recovery#${incident.id}`]);
		expect(await rig.incidentAudit()).toEqual([
			`incident.open#${incident.id}`,
			`incident.resolve#${incident.id}`
		]);
	});

	it('killed with the alert in flight: it is sent again at once on restart, before the recovery', async () => {
		rig = await startCrashRig();
		await rig.restart('after-delivery-send:alert');
		await rig.report(rig.result('error'));
		expect(await rig.killedBySelf()).toBe('SIGKILL');
		const incident = await incidentOf(rig);
		expect(rig.events()).toEqual([`alert#${incident.id}`]);
		await rig.restart();
		// Recovered as soon as the server is back: the recovery must not overtake the alert.
		await rig.report(rig.result('success'));
		await until(() => rig!.receiver.requests.length >= 3, 'the resent alert and the recovery');
		await settle(rig);
		// At-least-once: the alert the receiver may not have acknowledged comes again, same incident.
		expect(rig.events()).toEqual([
			`alert#${incident.id}`,
			`alert#${incident.id}`,
			`recovery#${incident.id}`
		]);
		const rows = await rig.db.delivery.findMany({
			where: { workspaceId: rig.ws.id },
			orderBy: { id: 'asc' }
		});
		expect(rows.map((r) => [r.status, r.attempts])).toEqual([
			['sent', 2],
			['sent', 1]
		]);
	});

	it('killed during the recovery (its status committed, nothing sent): the recovery follows on restart', async () => {
		rig = await startCrashRig();
		await rig.report(rig.result('error'));
		await until(() => rig!.receiver.requests.length >= 1, 'the alert');
		await settle(rig);
		await rig.restart('after-status-commit:active');
		expect(await rig.report(rig.result('success'))).toBeNull();
		expect(await rig.killedBySelf()).toBe('SIGKILL');
		await rig.restart();
		await until(() => rig!.receiver.requests.length >= 2, 'the recovery');
		await settle(rig);
		const incident = await incidentOf(rig);
		expect(rig.events()).toEqual([`alert#${incident.id}`, `recovery#${incident.id}`]);
		expect(await rig.incidentAudit()).toEqual([
			`incident.open#${incident.id}`,
			`incident.resolve#${incident.id}`
		]);
	});

	it('killed with the recovery in flight: it is sent again, once, after the alert', async () => {
		rig = await startCrashRig();
		await rig.report(rig.result('error'));
		await until(() => rig!.receiver.requests.length >= 1, 'the alert');
		await settle(rig);
		await rig.restart('after-delivery-send:recovery');
		await rig.report(rig.result('success'));
		expect(await rig.killedBySelf()).toBe('SIGKILL');
		await rig.restart();
		await until(() => rig!.receiver.requests.length >= 3, 'the resent recovery');
		await settle(rig);
		const incident = await incidentOf(rig);
		expect(rig.events()).toEqual([
			`alert#${incident.id}`,
			`recovery#${incident.id}`,
			`recovery#${incident.id}`
		]);
	});

	it('killed right after the degraded status commit: the degraded notice follows on restart, then its recovery', async () => {
		rig = await startCrashRig();
		await rig.restart('after-status-commit:degraded');
		expect(await rig.report(rig.result('degraded'))).toBeNull();
		expect(await rig.killedBySelf()).toBe('SIGKILL');
		await rig.restart();
		await until(() => rig!.receiver.requests.length >= 1, 'the degraded notice');
		await settle(rig);
		expect(rig.events()).toEqual(['degraded']);
		await rig.report(rig.result('success'));
		await until(() => rig!.receiver.requests.length >= 2, 'the recovery');
		await settle(rig);
		expect(rig.events()).toEqual(['degraded', 'recovery']);
		expect(await rig.db.incident.count({ where: { monitorId: rig.monitor.id } })).toBe(0);
		expect(await rig.incidentAudit()).toEqual([]);
	});

	it('killed with the degraded notice in flight: it is sent again before the recovery', async () => {
		rig = await startCrashRig();
		await rig.restart('after-delivery-send:degraded');
		await rig.report(rig.result('degraded'));
		expect(await rig.killedBySelf()).toBe('SIGKILL');
		await rig.restart();
		await rig.report(rig.result('success'));
		await until(() => rig!.receiver.requests.length >= 3, 'the resent notice and the recovery');
		await settle(rig);
		expect(rig.events()).toEqual(['degraded', 'degraded', 'recovery']);
	});
});
