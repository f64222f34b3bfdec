import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import { createMonitor, listMonitorTags, searchMonitors, updateMonitor } from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

describe('searchMonitors', () => {
	it('narrows by name or target, state (paused apart) and type, within the workspace', async () => {
		const ws = await createWorkspace(db);
		const write = ctxFor(db, ws);
		const ctx = ctxFor(db, ws, readKey());
		const shop = await createMonitor({
			ctx: write,
			input: {
				type: 'http',
				name: 'Shop',
				periodicity: '1m',
				active: true,
				url: 'https://shop.example'
			}
		});
		const db1 = await createMonitor({
			ctx: write,
			input: {
				type: 'tcp',
				name: 'Database',
				periodicity: '1m',
				active: true,
				uri: 'db.internal:5432'
			}
		});
		const paused = await createMonitor({
			ctx: write,
			input: {
				type: 'http',
				name: 'Old shop',
				periodicity: '1m',
				active: true,
				url: 'https://old.example'
			}
		});
		await updateMonitor({ ctx: write, input: { monitorId: paused.id, active: false } });
		await db.monitor.update({ where: { id: shop.id }, data: { status: 'error' } });
		// Another workspace's monitor with the same name never shows.
		await createMonitor({
			ctx: ctxFor(db, await createWorkspace(db)),
			input: {
				type: 'http',
				name: 'Shop',
				periodicity: '1m',
				active: true,
				url: 'https://shop.example'
			}
		});

		const names = async (input: Parameters<typeof searchMonitors>[0]['input']) =>
			(await searchMonitors({ ctx, input })).data.map((m) => m.name);
		expect(await names({ search: 'shop' })).toEqual(['Old shop', 'Shop']);
		expect(await names({ search: '5432' })).toEqual(['Database']);
		expect(await names({ state: 'error' })).toEqual(['Shop']);
		expect(await names({ state: 'paused' })).toEqual(['Old shop']);
		expect(await names({ type: 'tcp' })).toEqual(['Database']);
		expect(await names({ search: 'shop', state: 'error', type: 'http' })).toEqual(['Shop']);
		const all = await searchMonitors({ ctx, input: {} });
		expect(all.pagination.totalSize).toBe(3);
		expect(db1.id).toBeGreaterThan(0);
	});

	it('narrows by one tag, exactly and within the workspace, and lists the tags in use', async () => {
		const ws = await createWorkspace(db);
		const write = ctxFor(db, ws);
		const ctx = ctxFor(db, ws, readKey());
		const make = (name: string, tags: string[]) =>
			createMonitor({
				ctx: write,
				input: { type: 'http', name, periodicity: '1m', url: 'https://a.example', tags }
			});
		await make('Api', ['prod', 'eu']);
		await make('Web', ['production']);
		await make('Staging api', ['staging', 'eu']);
		await make('Quoted', ['b"prod']);
		await createMonitor({
			ctx: ctxFor(db, await createWorkspace(db)),
			input: {
				type: 'http',
				name: 'Other',
				periodicity: '1m',
				url: 'https://a.example',
				tags: ['prod']
			}
		});
		const names = async (tag: string) =>
			(await searchMonitors({ ctx, input: { tag } })).data.map((m) => m.name);
		expect(await names('prod')).toEqual(['Api']);
		expect(await names('eu')).toEqual(['Staging api', 'Api']);
		expect(await names('PROD')).toEqual([]);
		expect(await names('nope')).toEqual([]);
		expect(
			(await searchMonitors({ ctx, input: { tag: 'eu', search: 'staging' } })).data
		).toHaveLength(1);
		expect(await listMonitorTags({ ctx })).toEqual({
			tags: ['b"prod', 'eu', 'prod', 'production', 'staging']
		});
	});

	it('refuses an unknown state or field by name', async () => {
		const ctx = ctxFor(db, await createWorkspace(db), readKey());
		await expect(
			codeOf(searchMonitors({ ctx, input: { state: 'up' as 'active' } }))
		).resolves.toMatch(/^VALIDATION: /);
		await expect(
			codeOf(
				searchMonitors({
					ctx,
					input: { label: 'x' } as Parameters<typeof searchMonitors>[0]['input']
				})
			)
		).resolves.toMatch(/^VALIDATION: /);
	});
});
