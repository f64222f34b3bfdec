import {
	CreateComponentGroupInput,
	CreateMaintenanceInput,
	CreateMonitorInput,
	CreateNotificationChannelInput,
	CreatePageComponentInput,
	CreateStatusPageInput,
	hintsFor,
	SENSITIVE,
	type ProviderType
} from '@upstate/server/schemas';
import type { z } from 'zod';
import { listAll, type Api } from '../api.ts';
import type { Entry, Kind } from './schema.ts';

// One kind of resource as the plan sees it: how an entry becomes the server's create input, how
// a resource read back compares with it, and which calls change it. Field names are the create
// input's; only references (keys → ids) are translated.
export type Fields = Record<string, unknown>;
export type Resource = Fields & { id: number };
export type Ref = (kind: Kind, key: string) => number;
export type KeyOf = (kind: Kind, id: number) => string | undefined;

export type KindDef = {
	kind: Kind;
	noun: string;
	schema: z.ZodType; // the server's create input
	toInput: (entry: Fields, ref: Ref) => Fields;
	current: (r: Resource) => Fields; // a resource read back, in create-input fields
	toEntry: (r: Resource, keyOf: KeyOf) => Fields; // export
	replaceOn: string[]; // fields no update can change
	createOnly: string[]; // fields sent on create only, never compared
	equal?: Record<
		string,
		(desired: unknown, current: unknown, r: Resource, desiredAll: Fields) => boolean
	>;
	list: (api: Api, pages: Resource[]) => Promise<Resource[]>;
	create: (api: Api, input: Fields) => Promise<Resource>;
	update: (api: Api, id: number, changed: Fields) => Promise<unknown>;
	remove: (api: Api, id: number) => Promise<unknown>;
	label: (r: Resource) => string;
};

const sortedIds = (v: unknown) => [...((v as number[] | undefined) ?? [])].sort((a, b) => a - b);
const sameIds = (a: unknown, b: unknown) =>
	JSON.stringify(sortedIds(a)) === JSON.stringify(sortedIds(b));
const sameInstant = (a: unknown, b: unknown) => Date.parse(String(a)) === Date.parse(String(b));
const pick = (r: Fields, keys: string[]) =>
	Object.fromEntries(keys.filter((k) => r[k] !== undefined).map((k) => [k, r[k]]));
// safe because each call site passes the fields the procedure's input schema checks itself
const loose = <T>(v: unknown) => v as T;

// Export writes `${VARIABLE}` in place of a secret; the name says which entry and field.
export const secretVar = (kind: string, key: string, field: string) =>
	`UPSTATE_${kind}_${key}_${field}`.toUpperCase().replace(/[^A-Z0-9_]/g, '_');

// The create-input fields of a monitor type (an http monitor's url, method, ...).
export const monitorFieldsOf = (type: string) => {
	const option = CreateMonitorInput.options.find((o) => o.shape.type.value === type);
	return Object.keys(option?.shape ?? {});
};

const monitors: KindDef = {
	kind: 'monitors',
	noun: 'monitor',
	schema: CreateMonitorInput,
	toInput: (e) => e,
	current: (r) => ({
		...pick(r, monitorFieldsOf(String(r.type))),
		open_telemetry: r.open_telemetry
	}),
	toEntry: (r) => pick(r, monitorFieldsOf(String(r.type))),
	replaceOn: ['type'],
	createOnly: [],
	equal: {
		regions: (d, c) =>
			d === undefined ||
			JSON.stringify([...(d as string[])].sort()) === JSON.stringify([...(c as string[])].sort()),
		open_telemetry: (d, c) => JSON.stringify(d ?? null) === JSON.stringify(c ?? null)
	},
	list: (api) => listAll((page) => api.call('monitor.list', { page, perPage: 50 })),
	create: (api, input) => api.call('monitor.create', loose(input)),
	update: (api, id, changed) => api.call('monitor.update', loose({ monitorId: id, ...changed })),
	remove: (api, id) => api.call('monitor.remove', { monitorId: id }),
	label: (r) => String(r.name)
};

const statusPages: KindDef = {
	kind: 'status_pages',
	noun: 'status page',
	schema: CreateStatusPageInput,
	toInput: (e) => e,
	current: (r) => r,
	toEntry: (r, keyOf) => {
		const entry = pick(
			r,
			Object.keys(CreateStatusPageInput.shape).filter((k) => k !== 'password')
		);
		const key = keyOf('status_pages', r.id) ?? String(r.slug);
		return r.has_password
			? { ...entry, password: `\${${secretVar('page', key, 'password')}}` }
			: entry;
	},
	replaceOn: [],
	createOnly: [],
	equal: {
		// Write-only: what can be told is whether a password is set.
		password: (_d, _c, r) => r.has_password === true,
		// The server adds the default to a non-empty list (withDefaultLocale).
		locales: (d, c, _r, all) => {
			const desired = d as string[];
			const withDefault = desired.length
				? [...new Set([String(all.default_locale), ...desired])]
				: desired;
			return JSON.stringify(withDefault) === JSON.stringify(c);
		}
	},
	list: async (api) => (await api.call('statusPage.list', {})).data,
	create: (api, input) => api.call('statusPage.create', loose(input)),
	update: (api, id, changed) => api.call('statusPage.update', loose({ pageId: id, ...changed })),
	remove: (api, id) => api.call('statusPage.remove', { pageId: id }),
	label: (r) => String(r.slug)
};

const componentGroups: KindDef = {
	kind: 'component_groups',
	noun: 'component group',
	schema: CreateComponentGroupInput,
	toInput: ({ page, ...e }, ref) => ({ ...e, pageId: ref('status_pages', String(page)) }),
	current: (r) => ({ pageId: r.page_id, name: r.name }),
	toEntry: (r, keyOf) => ({ page: keyOf('status_pages', Number(r.page_id)), name: r.name }),
	replaceOn: ['pageId'],
	createOnly: [],
	list: async (api, pages) =>
		(
			await Promise.all(pages.map((p) => api.call('componentGroup.list', { pageId: p.id })))
		).flatMap((l) => l.data),
	create: (api, input) => api.call('componentGroup.create', loose(input)),
	update: (api, id, changed) =>
		api.call('componentGroup.update', loose({ groupId: id, ...changed })),
	remove: (api, id) => api.call('componentGroup.remove', { groupId: id }),
	label: (r) => String(r.name)
};

const components: KindDef = {
	kind: 'components',
	noun: 'component',
	schema: CreatePageComponentInput,
	toInput: ({ page, monitor, group, ...e }, ref) => ({
		...e,
		pageId: ref('status_pages', String(page)),
		...(monitor !== undefined ? { monitor_id: ref('monitors', String(monitor)) } : {}),
		group_id: group === null || group === undefined ? null : ref('component_groups', String(group))
	}),
	current: (r) => ({
		...pick(r, ['type', 'name', 'description', 'order', 'group_id', 'group_order']),
		pageId: r.page_id,
		...(r.type === 'monitor' ? { monitor_id: r.monitor_id } : {})
	}),
	toEntry: (r, keyOf) => ({
		type: r.type,
		page: keyOf('status_pages', Number(r.page_id)),
		...(r.type === 'monitor' ? { monitor: keyOf('monitors', Number(r.monitor_id)) } : {}),
		...pick(r, ['name', 'description', 'order']),
		group: r.group_id === null ? null : keyOf('component_groups', Number(r.group_id)),
		group_order: r.group_order
	}),
	replaceOn: ['type', 'pageId'],
	createOnly: [],
	list: async (api, pages) =>
		(await Promise.all(pages.map((p) => api.call('pageComponent.list', { pageId: p.id })))).flatMap(
			(l) => l.data
		),
	create: (api, input) => api.call('pageComponent.create', loose(input)),
	update: (api, id, changed) =>
		api.call('pageComponent.update', loose({ componentId: id, ...changed })),
	remove: (api, id) => api.call('pageComponent.remove', { componentId: id }),
	label: (r) => String(r.name)
};

// A provider block compares field by field; a secret by the hint the server shows of it.
const sameBlock = (d: unknown, c: unknown, r: Resource) => {
	const type = r.provider_type as ProviderType;
	const hints = (r.secret_hints ?? {}) as Record<string, string>;
	return Object.entries((d ?? {}) as Fields).every(([k, v]) =>
		SENSITIVE[type]?.includes(k)
			? hintsFor({ [k]: v })[k] === hints[k]
			: JSON.stringify(v) === JSON.stringify(((c ?? {}) as Fields)[k])
	);
};

const channels: KindDef = {
	kind: 'notification_channels',
	noun: 'notification channel',
	schema: CreateNotificationChannelInput,
	toInput: ({ monitors: keys, ...e }, ref) => ({
		...e,
		monitor_ids: ((keys as string[] | undefined) ?? []).map((k) => ref('monitors', k))
	}),
	current: (r) => ({
		...pick(r, ['name', 'provider_type', 'monitor_ids']),
		[String(r.provider_type)]: r[String(r.provider_type)]
	}),
	toEntry: (r, keyOf) => {
		const type = r.provider_type as ProviderType;
		const key = keyOf('notification_channels', r.id) ?? String(r.id);
		const block = { ...((r[type] ?? {}) as Fields) };
		for (const field of SENSITIVE[type])
			if (field !== 'headers' && (r.secret_hints as Fields)?.[field] !== undefined)
				block[field] = `\${${secretVar('channel', key, field)}}`;
		return {
			name: r.name,
			provider_type: type,
			monitors: sortedIds(r.monitor_ids).map((id) => keyOf('monitors', id)),
			[type]: block
		};
	},
	replaceOn: [],
	createOnly: [],
	equal: {
		monitor_ids: sameIds,
		...Object.fromEntries((Object.keys(SENSITIVE) as ProviderType[]).map((t) => [t, sameBlock]))
	},
	list: (api) => listAll((page) => api.call('notificationChannel.list', { page, perPage: 200 })),
	create: (api, input) => api.call('notificationChannel.create', loose(input)),
	update: (api, id, changed) =>
		api.call('notificationChannel.update', loose({ notificationChannelId: id, ...changed })),
	remove: (api, id) => api.call('notificationChannel.remove', { notificationChannelId: id }),
	label: (r) => String(r.name || `${r.provider_type} ${r.id}`)
};

const maintenance: KindDef = {
	kind: 'maintenance',
	noun: 'maintenance window',
	schema: CreateMaintenanceInput,
	toInput: ({ page, components: keys, ...e }, ref) => ({
		...e,
		pageId: ref('status_pages', String(page)),
		pageComponentIds: ((keys as string[] | undefined) ?? []).map((k) => ref('components', k))
	}),
	current: (r) =>
		pick(r, ['pageId', 'title', 'message', 'from', 'to', 'pageComponentIds', 'notify']),
	toEntry: (r, keyOf) => ({
		page: keyOf('status_pages', Number(r.pageId)),
		...pick(r, ['title', 'message', 'from', 'to']),
		components: sortedIds(r.pageComponentIds).map((id) => keyOf('components', id)),
		notify: r.notify
	}),
	replaceOn: ['pageId'],
	// Publishing happens once, on create (spec 4.1 rule 2): an edit has no notify path.
	createOnly: ['notify'],
	equal: { from: sameInstant, to: sameInstant, pageComponentIds: sameIds },
	list: (api) => listAll((page) => api.call('maintenance.list', { page, perPage: 200 })),
	create: (api, input) => api.call('maintenance.create', loose(input)),
	update: (api, id, changed) =>
		api.call('maintenance.update', loose({ maintenanceId: id, ...changed })),
	remove: (api, id) => api.call('maintenance.remove', { maintenanceId: id }),
	label: (r) => String(r.title)
};

export const KINDS: Record<Kind, KindDef> = {
	monitors,
	status_pages: statusPages,
	component_groups: componentGroups,
	components,
	notification_channels: channels,
	maintenance
};

export type Entries = { [K in Kind]: Record<string, Entry<K>> };
