import type { Value } from './codec.ts';
import {
	createInputOf,
	ImportError,
	notFound,
	numericId,
	orNull,
	pairId,
	planWith,
	stateOf,
	updateInputOf,
	type Api,
	type Managed,
	type Row
} from './resource.ts';
import { listOf, mapOf, setOf, type Attr } from './schema.ts';

// upstate_private_location, upstate_status_page, upstate_status_page_component and
// upstate_status_page_component_group over /rpc (spec 2.12-2.15).
const id = (noun: string): Attr => ({
	name: 'id',
	type: 'string',
	computed: true,
	description: `The ${noun} id`
});
const createdAt: Attr = {
	name: 'created_at',
	type: 'string',
	computed: true,
	description: 'Creation time'
};
const pageId: Attr = {
	name: 'page_id',
	type: 'string',
	required: true,
	description: 'The status page it belongs to (changing it replaces it)'
};
type Obj = Record<string, unknown>;

// ---- upstate_private_location --------------------------------------------------------------

const LOCATION = {
	attrs: [
		id('private location'),
		{ name: 'name', type: 'string', required: true, description: 'Name, 1-256 characters' },
		{
			name: 'monitor_ids',
			type: setOf('string'),
			optional: true,
			description:
				'Monitors it runs. Owned by Terraform: left out, the location runs none after the next apply'
		},
		{
			name: 'metadata',
			type: mapOf('string'),
			optional: true,
			description:
				'Labels (key 1-256, value up to 1024 characters). Owned by Terraform: left out, they are cleared'
		},
		{
			name: 'token',
			type: 'string',
			computed: true,
			sensitive: true,
			description: 'The agent key: SERVICE_KEY for the probe (docker-compose.probe.yaml)'
		},
		createdAt
	] satisfies Attr[],
	ids: ['monitor_ids']
};

export const PRIVATE_LOCATION: Managed = {
	noun: 'private location',
	schema: {
		description:
			'A private location: a probe you run that checks its monitors from your network. Its liveness (status, last_seen_at) is on data.upstate_private_locations.',
		attributes: LOCATION.attrs
	},
	plan: planWith(LOCATION),
	async read(api, state) {
		const l = await orNull(api('privateLocation.get', { privateLocationId: Number(state.id) }));
		return l && stateOf(LOCATION, l, state);
	},
	async create(api, planned) {
		// An empty `metadata`/`monitor_ids` is the create default: left out like null.
		const l = await api('privateLocation.create', createInputOf(LOCATION, planned));
		return stateOf(LOCATION, l, planned);
	},
	async update(api, prior, planned) {
		const l = await api('privateLocation.update', {
			privateLocationId: Number(prior.id),
			...updateInputOf(LOCATION, prior, planned)
		});
		return stateOf(LOCATION, l, planned);
	},
	async remove(api, prior) {
		await orNull(api('privateLocation.remove', { privateLocationId: Number(prior.id) }));
	},
	async importState(api, raw) {
		const n = numericId(
			raw,
			'private location',
			'`terraform import upstate_private_location.rack 7`'
		);
		const l = await orNull(api('privateLocation.get', { privateLocationId: n }));
		if (!l) throw notFound('private location', raw, 'data.upstate_private_locations lists them');
		if (l.built_in)
			throw new ImportError(
				`Private location ${raw} is the built-in one`,
				'Upstate manages the built-in location itself; import one you created.'
			);
		return stateOf(LOCATION, l, null);
	}
};

// ---- upstate_status_page -------------------------------------------------------------------

const optString = (name: string, description: string): Attr => ({
	name,
	type: 'string',
	optional: true,
	description
});
const withDefault = (name: string, type: Attr['type'], description: string): Attr => ({
	name,
	type,
	optional: true,
	computed: true,
	description
});

const PAGE = {
	attrs: [
		id('status page'),
		{ name: 'title', type: 'string', required: true, description: 'Title, 1-256 characters' },
		{
			name: 'slug',
			type: 'string',
			required: true,
			description: 'Lowercase letters, digits and single dashes; unique across the service'
		},
		withDefault('description', 'string', 'Up to 1024 characters, default ""'),
		optString('homepage_url', 'http or https URL'),
		optString('contact_url', 'http, https or mailto URL'),
		optString('icon', 'http or https URL of the icon'),
		optString(
			'custom_domain',
			'A host such as status.example.com whose DNS points at the status site (plan feature custom-domain)'
		),
		withDefault(
			'access_type',
			'string',
			'public, password, email-domain or ip-restriction; default public'
		),
		{
			name: 'password',
			type: 'string',
			optional: true,
			sensitive: true,
			description:
				'For access_type password. Write-only: never read back, so a change made elsewhere is not seen'
		},
		{
			name: 'auth_email_domains',
			type: listOf('string'),
			optional: true,
			description: 'For access_type email-domain: domains such as example.com'
		},
		withDefault(
			'allowed_ip_ranges',
			'string',
			'For access_type ip-restriction: comma-separated CIDR ranges'
		),
		withDefault('theme', 'string', 'Theme name, default "default"'),
		withDefault('default_locale', 'string', 'en, de, fr, es or ja; default en'),
		{
			name: 'locales',
			type: listOf('string'),
			optional: true,
			description: 'Languages offered; list default_locale first (the server adds it when missing)'
		},
		withDefault('allow_index', 'bool', 'Let search engines index the page, default true'),
		{ name: 'has_password', type: 'bool', computed: true, description: 'A password is set' },
		{ name: 'published', type: 'bool', computed: true, description: 'Published' },
		createdAt
	] satisfies Attr[],
	defaults: {
		description: () => '',
		access_type: () => 'public',
		allowed_ip_ranges: () => '',
		theme: () => 'default',
		default_locale: () => 'en',
		allow_index: () => true
	} satisfies Record<string, () => Value>,
	writeOnly: ['password']
};

export const STATUS_PAGE: Managed = {
	noun: 'status page',
	schema: { description: 'An Upstate status page.', attributes: PAGE.attrs },
	plan: planWith(PAGE),
	async read(api, state) {
		const p = await orNull(api('statusPage.get', { pageId: Number(state.id) }));
		return p && stateOf(PAGE, p, state);
	},
	async create(api, planned) {
		return stateOf(PAGE, await api('statusPage.create', createInputOf(PAGE, planned)), planned);
	},
	async update(api, prior, planned) {
		const p = await api('statusPage.update', {
			pageId: Number(prior.id),
			...updateInputOf(PAGE, prior, planned)
		});
		return stateOf(PAGE, p, planned);
	},
	async remove(api, prior) {
		await orNull(api('statusPage.remove', { pageId: Number(prior.id) }));
	},
	async importState(api, raw) {
		const n = numericId(raw, 'status page', '`terraform import upstate_status_page.main 3`');
		const p = await orNull(api('statusPage.get', { pageId: n }));
		if (!p) throw notFound('status page', raw, 'the dashboard or `upstate pages list` shows them');
		return stateOf(PAGE, p, null);
	}
};

// ---- upstate_status_page_component ---------------------------------------------------------

const COMPONENT = {
	attrs: [
		id('component'),
		pageId,
		{
			name: 'type',
			type: 'string',
			optional: true,
			computed: true,
			description:
				'monitor or static; default monitor when monitor_id is set (changing it replaces it)'
		},
		{
			name: 'monitor_id',
			type: 'string',
			optional: true,
			description: 'For type monitor: the monitor it shows'
		},
		withDefault(
			'name',
			'string',
			"Up to 256 characters; required for static, default the monitor's name"
		),
		withDefault('description', 'string', 'Up to 1024 characters, default ""'),
		withDefault('order', 'number', 'Display order, default 0'),
		optString('group_id', 'upstate_status_page_component_group id'),
		withDefault('group_order', 'number', 'Order inside the group, default 0'),
		createdAt
	] satisfies Attr[],
	defaults: {
		type: (c: Row) => (c.monitor_id === null ? 'static' : 'monitor'),
		description: () => '',
		order: () => 0,
		group_order: () => 0
	},
	replaceOn: ['page_id', 'type'],
	ids: ['page_id', 'monitor_id', 'group_id']
};

const findIn = async (
	api: Api,
	proc: 'pageComponent.list' | 'componentGroup.list',
	page: number,
	id: number
) => {
	const list = await orNull(api(proc, { pageId: page }));
	return ((list?.data as Obj[] | undefined) ?? []).find((x) => Number(x.id) === id) ?? null;
};

// A component or group by its `page_id/id` import id (/rpc lists them per page, no single read).
async function importOnPage(
	api: Api,
	raw: string,
	proc: 'pageComponent.list' | 'componentGroup.list',
	what: { id: string; noun: string; example: string }
): Promise<Obj> {
	const [page, n] = pairId(raw, what.id, what.example);
	const row = await findIn(api, proc, page, n);
	if (!row) throw notFound(what.noun, raw, `page_id/${what.id}_id of this workspace`);
	return row;
}

export const PAGE_COMPONENT: Managed = {
	noun: 'status page component',
	schema: {
		description: 'A component of a status page: a monitor shown on it, or a static entry.',
		attributes: COMPONENT.attrs
	},
	plan: planWith(COMPONENT),
	async read(api, state) {
		const c = await findIn(api, 'pageComponent.list', Number(state.page_id), Number(state.id));
		return c && stateOf(COMPONENT, c, state);
	},
	async create(api, planned) {
		const { page_id, ...rest } = createInputOf(COMPONENT, planned);
		const c = await api('pageComponent.create', { pageId: page_id, ...rest });
		return stateOf(COMPONENT, c, planned);
	},
	async update(api, prior, planned) {
		const c = await api('pageComponent.update', {
			componentId: Number(prior.id),
			...updateInputOf(COMPONENT, prior, planned, ['page_id', 'type'])
		});
		return stateOf(COMPONENT, c, planned);
	},
	async remove(api, prior) {
		await orNull(api('pageComponent.remove', { componentId: Number(prior.id) }));
	},
	async importState(api, raw) {
		const c = await importOnPage(api, raw, 'pageComponent.list', {
			id: 'component',
			noun: 'status page component',
			example: '`terraform import upstate_status_page_component.api 3/12`'
		});
		return stateOf(COMPONENT, c, null);
	}
};

// ---- upstate_status_page_component_group ---------------------------------------------------

const GROUP = {
	attrs: [
		id('component group'),
		pageId,
		{ name: 'name', type: 'string', required: true, description: 'Name, 1-256 characters' },
		createdAt
	] satisfies Attr[],
	replaceOn: ['page_id'],
	ids: ['page_id']
};

export const COMPONENT_GROUP: Managed = {
	noun: 'component group',
	schema: {
		description: 'A group of status page components (set group_id on the components).',
		attributes: GROUP.attrs
	},
	plan: planWith(GROUP),
	async read(api, state) {
		const g = await findIn(api, 'componentGroup.list', Number(state.page_id), Number(state.id));
		return g && stateOf(GROUP, g, state);
	},
	async create(api, planned) {
		const g = await api('componentGroup.create', {
			pageId: Number(planned.page_id),
			name: planned.name
		});
		return stateOf(GROUP, g, planned);
	},
	async update(api, prior, planned) {
		const g = await api('componentGroup.update', { groupId: Number(prior.id), name: planned.name });
		return stateOf(GROUP, g, planned);
	},
	async remove(api, prior) {
		await orNull(api('componentGroup.remove', { groupId: Number(prior.id) }));
	},
	async importState(api, raw) {
		const g = await importOnPage(api, raw, 'componentGroup.list', {
			id: 'group',
			noun: 'component group',
			example: '`terraform import upstate_status_page_component_group.core 3/5`'
		});
		return stateOf(GROUP, g, null);
	}
};
