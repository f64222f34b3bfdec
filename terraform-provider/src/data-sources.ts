import type { Value } from './codec.ts';
import { listOf, mapOf, obj, type Attr, type Block } from './schema.ts';

// Read-only lists: upstate_monitors and upstate_private_locations (spec 8: `limit` and
// `offset` over the workspace's list, newest first). Liveness lives here, not on resources.
type Row = Record<string, Value>;
const paging = (max: number | null): Attr[] => [
	{
		name: 'limit',
		type: 'number',
		optional: true,
		computed: true,
		description: max ? `1 to ${max}, default 50` : 'default 50'
	},
	{ name: 'offset', type: 'number', optional: true, computed: true, description: 'default 0' }
];

const MONITOR_ROW = obj({
	id: 'string',
	type: 'string',
	name: 'string',
	periodicity: 'string',
	active: 'bool',
	public: 'bool',
	status: 'string',
	regions: listOf('string'),
	tags: listOf('string'),
	url: 'string',
	uri: 'string'
});
const LOCATION_ROW = obj({
	id: 'string',
	name: 'string',
	status: 'string',
	last_seen_at: 'string',
	built_in: 'bool',
	monitor_ids: listOf('number'),
	metadata: mapOf('string')
});

export const DATA_SOURCES: Record<string, Block> = {
	upstate_monitors: {
		description: "The workspace's monitors, newest first.",
		attributes: [
			...paging(100),
			{
				name: 'monitors',
				type: listOf(MONITOR_ROW),
				computed: true,
				description: 'status is active, degraded, error or unknown'
			}
		]
	},
	upstate_private_locations: {
		description: "The workspace's private locations with their liveness.",
		attributes: [
			...paging(null),
			{
				name: 'private_locations',
				type: listOf(LOCATION_ROW),
				computed: true,
				description: 'status is active, error or unknown; last_seen_at is the last probe contact'
			}
		]
	}
};

export type Page = { data: Record<string, unknown>[]; pagination: { totalSize: number } };

// `offset`/`limit` over the server's pages (`page`, `perPage`): the pages that cover the window.
export async function window(
	fetchPage: (page: number, perPage: number) => Promise<Page>,
	offset: number,
	limit: number,
	perPage: number
): Promise<Record<string, unknown>[]> {
	const out: Record<string, unknown>[] = [];
	let page = Math.floor(offset / perPage) + 1;
	let skip = offset % perPage;
	while (out.length < limit) {
		const res = await fetchPage(page, perPage);
		out.push(...res.data.slice(skip, skip + limit - out.length));
		if (res.data.length < perPage) break;
		page += 1;
		skip = 0;
	}
	return out;
}

export const monitorRow = (m: Record<string, unknown>): Row => ({
	id: String(m.id),
	type: m.type as string,
	name: m.name as string,
	periodicity: m.periodicity as string,
	active: m.active as boolean,
	public: m.public as boolean,
	status: m.status as string,
	regions: (m.regions as string[]) ?? [],
	tags: (m.tags as string[]) ?? [],
	url: (m.url as string) ?? null,
	uri: (m.uri as string) ?? null
});

export const locationRow = (l: Record<string, unknown>): Row => ({
	id: String(l.id),
	name: l.name as string,
	status: l.status as string,
	last_seen_at: (l.last_seen_at as string) ?? null,
	built_in: l.built_in as boolean,
	monitor_ids: (l.monitor_ids as number[]) ?? [],
	metadata: (l.metadata as Record<string, string>) ?? {}
});
