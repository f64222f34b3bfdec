import {
	CreateComponentGroupInput,
	CreateMaintenanceInput,
	CreateMonitorInput,
	CreateNotificationChannelInput,
	CreatePageComponentInput,
	CreateStatusPageInput
} from '@upstate/server/schemas';
import { z } from 'zod';

// `upstate.yaml`: one map per resource kind, each entry under a stable key that other entries
// refer to (`page: main`, `monitors: [api]`). Every field and rule is the server's own create
// input (imported, never copied); only the id fields become keys.
export const KIND_ORDER = [
	'monitors',
	'status_pages',
	'component_groups',
	'components',
	'notification_channels',
	'maintenance'
] as const;
export type Kind = (typeof KIND_ORDER)[number];

export const Key = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/, {
	error: 'keys are letters, digits, ".", "_" and "-", starting with a letter or digit'
});
const Ref = (kind: Kind) => Key.describe(`The key of an entry under ${kind}`);

const [monitorComponent, staticComponent] = CreatePageComponentInput.options;
const componentRefs = {
	page: Ref('status_pages'),
	group: Ref('component_groups').nullable().default(null)
};

const { monitor_ids: _monitorIds, ...channelShape } = CreateNotificationChannelInput.shape;
const {
	pageId: _pageId,
	pageComponentIds: _ids,
	...maintenanceShape
} = CreateMaintenanceInput.shape;

export const ENTRY = {
	monitors: CreateMonitorInput,
	status_pages: CreateStatusPageInput,
	component_groups: CreateComponentGroupInput.omit({ pageId: true }).extend({
		page: Ref('status_pages')
	}),
	components: z.discriminatedUnion('type', [
		monitorComponent
			.omit({ pageId: true, monitor_id: true, group_id: true })
			.extend({ ...componentRefs, monitor: Ref('monitors') }),
		staticComponent.omit({ pageId: true, group_id: true }).extend(componentRefs)
	]),
	notification_channels: z
		.object({ ...channelShape, monitors: z.array(Ref('monitors')).default([]) })
		.strict(),
	maintenance: z
		.object({
			...maintenanceShape,
			page: Ref('status_pages'),
			components: z.array(Ref('components')).default([])
		})
		.strict()
} as const;

export type Entry<K extends Kind> = z.output<(typeof ENTRY)[K]>;

const section = <K extends Kind>(kind: K, description: string) =>
	z.record(Key, ENTRY[kind]).default({}).describe(description);

export const UpstateFile = z
	.object({
		version: z.literal(1).describe('The file format version'),
		monitors: section('monitors', 'Monitors by key (spec 2.4-2.9)'),
		status_pages: section('status_pages', 'Status pages by key (spec 2.12)'),
		component_groups: section('component_groups', 'Component groups by key (spec 2.14)'),
		components: section('components', 'Status page components by key (spec 2.13)'),
		notification_channels: section(
			'notification_channels',
			'Notification channels by key, with the monitors they alert for (spec 2.11)'
		),
		maintenance: section('maintenance', 'Maintenance windows by key (spec 2.16)')
	})
	.strict();
export type UpstateFile = z.output<typeof UpstateFile>;

// The schema editors read (`# yaml-language-server: $schema=...`). A string may also be a
// `${VARIABLE}` reference, which the CLI replaces from the environment before validating.
export function fileJsonSchema(): Record<string, unknown> {
	const schema = z.toJSONSchema(UpstateFile, { io: 'input', unrepresentable: 'any' });
	return allowEnvRefs({ ...schema, title: 'upstate.yaml' }) as Record<string, unknown>;
}

const ENV_REF = { type: 'string', pattern: '^\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}$' };
function allowEnvRefs(node: unknown): unknown {
	if (Array.isArray(node)) return node.map(allowEnvRefs);
	if (!node || typeof node !== 'object') return node;
	// Keys are never read from the environment: only values are.
	const out = Object.fromEntries(
		Object.entries(node).map(([k, v]) => [k, k === 'propertyNames' ? v : allowEnvRefs(v)])
	);
	const constrained =
		out.type === 'string' && ('format' in out || 'pattern' in out || 'enum' in out);
	return constrained ? { anyOf: [out, ENV_REF] } : out;
}
