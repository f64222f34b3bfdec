import type { ProcedurePath } from '../../cli/src/api.ts';
import { ApiError, CliError } from '../../cli/src/errors.ts';
import { connectTransport } from '../../cli/src/transport.ts';
import { decodeValue, encodeValue, UNKNOWN, type DynamicValue, type Value } from './codec.ts';
import { DEFAULT_BASE_URL } from './config.ts';
import { DATA_SOURCES, locationRow, monitorRow, window, type Page } from './data-sources.ts';
import { MONITOR } from './monitor.ts';
import { MAINTENANCE_WINDOW, NOTIFICATION } from './notifications.ts';
import { ImportError, type Managed } from './resource.ts';
import { COMPONENT_GROUP, PAGE_COMPONENT, PRIVATE_LOCATION, STATUS_PAGE } from './resources.ts';
import { toProto, type Block } from './schema.ts';

// tfplugin6.Provider: each handler takes the request as proto-loader decodes it (snake_case
// keys) and returns the response message. Calls go to {base_url}/rpc through the CLI's
// transport (same services, same error mapping), with the key as x-service-key.
type Row = Record<string, Value>;
type Diag = {
	severity: 'ERROR' | 'WARNING';
	summary: string;
	detail?: string;
	attribute?: { steps: ({ attribute_name: string } | { element_key_int: number })[] };
};
type Req = Record<string, unknown> & { type_name?: string };

export const PROVIDER_SCHEMA: Block = {
	description:
		'Upstate: monitors, private locations, status pages, notification channels and maintenance windows over the ConnectRPC API ({base_url}/rpc).',
	attributes: [
		{
			name: 'api_token',
			type: 'string',
			optional: true,
			sensitive: true,
			description: 'API key (x-service-key); or the SERVICE_API_TOKEN environment variable'
		},
		{
			name: 'base_url',
			type: 'string',
			optional: true,
			description: `API server origin, default ${DEFAULT_BASE_URL}; calls go to {base_url}/rpc`
		}
	]
};
const RESOURCES: Record<string, Managed> = {
	upstate_monitor: MONITOR,
	upstate_private_location: PRIVATE_LOCATION,
	upstate_status_page: STATUS_PAGE,
	upstate_status_page_component: PAGE_COMPONENT,
	upstate_status_page_component_group: COMPONENT_GROUP,
	upstate_notification: NOTIFICATION,
	upstate_maintenance: MAINTENANCE_WINDOW
};

const path = (p: string): Diag['attribute'] => ({
	steps: p
		.split('.')
		.filter(Boolean)
		.map((s) => (/^\d+$/.test(s) ? { element_key_int: Number(s) } : { attribute_name: s }))
});
const error = (summary: string, detail?: string, attr?: string): Diag => ({
	severity: 'ERROR',
	summary,
	detail,
	...(attr ? { attribute: path(attr) } : {})
});

// A failed call as diagnostics that say what to do next; field issues land on their attribute.
// A conflict names its field first ("slug 'x' is already taken"): it lands there too.
export function diagnose(err: unknown, doing: string, attrs: string[] = []): Diag[] {
	if (err instanceof ApiError) {
		if (err.code === 'VALIDATION' && err.issues.length > 0)
			return err.issues.map((i) =>
				error(
					`Invalid ${i.path || 'value'}: ${i.message}`,
					`Upstate refused ${doing}. Fix this attribute and run the command again.`,
					i.path
				)
			);
		const next: Record<string, string> = {
			UNAUTHORIZED:
				'Set api_token in the provider block (or SERVICE_API_TOKEN) to a valid key; keys are made in the dashboard under Settings → API keys.',
			FORBIDDEN:
				"This key's scope does not allow it: issue a key with write scope (Settings → API keys) and set it as api_token.",
			NOT_FOUND:
				'Check the ids in this configuration: each must be one of this workspace’s (data.upstate_monitors lists monitors).',
			CONFLICT: 'Pick another value: this one is already in use.',
			LIMIT_EXCEEDED:
				"The workspace's plan does not allow this: remove something or change the plan."
		};
		const field = /^(\w+) /.exec(err.message)?.[1];
		return [
			error(
				`Upstate refused ${doing}: ${err.message}`,
				`${err.code}. ${next[err.code] ?? err.hint ?? ''}`.trim(),
				err.code === 'CONFLICT' && field && attrs.includes(field) ? field : undefined
			)
		];
	}
	if (err instanceof CliError)
		return [
			error(
				`Upstate call failed while ${doing}: ${err.message}`,
				'Check base_url (the API server origin, default http://localhost:3001, calls go to {base_url}/rpc) and that the server is running.'
			)
		];
	return [error(`Unexpected failure while ${doing}`, String(err))];
}

export function createProvider(env: { apiToken: string | undefined }) {
	let call: ((path: ProcedurePath, input: unknown) => Promise<Record<string, unknown>>) | null =
		null;
	const api = () => {
		if (!call) throw new CliError('the provider is not configured');
		return call;
	};

	const managed = (req: Req): Managed => {
		const r = RESOURCES[String(req.type_name)];
		if (!r) throw new Error(`unknown resource type ${String(req.type_name)}`);
		return r;
	};
	const attrNames = (r: Managed) => r.schema.attributes.map((a) => a.name);

	const handlers: Record<string, (req: Req) => Promise<Record<string, unknown>>> = {
		async GetMetadata() {
			return {
				server_capabilities: { get_provider_schema_optional: false },
				resources: Object.keys(RESOURCES).map((type_name) => ({ type_name })),
				data_sources: Object.keys(DATA_SOURCES).map((type_name) => ({ type_name }))
			};
		},
		async GetProviderSchema() {
			return {
				provider: toProto(PROVIDER_SCHEMA),
				resource_schemas: Object.fromEntries(
					Object.entries(RESOURCES).map(([k, v]) => [k, toProto(v.schema)])
				),
				data_source_schemas: Object.fromEntries(
					Object.entries(DATA_SOURCES).map(([k, v]) => [k, toProto(v)])
				),
				server_capabilities: {}
			};
		},
		async ValidateProviderConfig() {
			return { diagnostics: [] };
		},
		async ConfigureProvider(req) {
			const config = decodeValue(req.config as DynamicValue) as Row;
			const token = (config.api_token as string | null) ?? env.apiToken;
			if (config.api_token === UNKNOWN || config.base_url === UNKNOWN)
				return {
					diagnostics: [
						error(
							'api_token and base_url must be known before planning',
							'Set them from variables or literals, not from resources created in the same run.'
						)
					]
				};
			if (!token)
				return {
					diagnostics: [
						error(
							'Missing api_token',
							'Set api_token in the provider "upstate" block or the SERVICE_API_TOKEN environment variable to an Upstate API key (dashboard: Settings → API keys).',
							'api_token'
						)
					]
				};
			const baseUrl = ((config.base_url as string | null) ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
			const transport = connectTransport({ baseUrl, apiKey: token });
			call = (p, input) => transport(p, input) as Promise<Record<string, unknown>>;
			try {
				await call('workspace.whoami', {});
			} catch (err) {
				call = null;
				return { diagnostics: diagnose(err, 'the API token') };
			}
			return { diagnostics: [] };
		},
		async ValidateResourceConfig(req) {
			const config = decodeValue(req.config as DynamicValue) as Row;
			const issues = managed(req).validate?.(config) ?? [];
			return { diagnostics: issues.map((i) => error(i.summary, i.detail, i.attr)) };
		},
		async ValidateDataResourceConfig(req) {
			const config = decodeValue(req.config as DynamicValue) as Row;
			const limit = config?.limit;
			const offset = config?.offset;
			const diagnostics: Diag[] = [];
			const max = req.type_name === 'upstate_monitors' ? 100 : null;
			if (
				typeof limit === 'number' &&
				(!Number.isInteger(limit) || limit < 1 || (max !== null && limit > max))
			)
				diagnostics.push(
					error(
						`limit must be a whole number from 1${max ? ` to ${max}` : ''}`,
						`Got ${limit}.`,
						'limit'
					)
				);
			if (typeof offset === 'number' && (!Number.isInteger(offset) || offset < 0))
				diagnostics.push(
					error('offset must be a whole number, 0 or more', `Got ${offset}.`, 'offset')
				);
			return { diagnostics };
		},
		async UpgradeResourceState(req) {
			const raw = req.raw_state as { json?: Buffer } | undefined;
			return { upgraded_state: { json: raw?.json ?? Buffer.from('null') }, diagnostics: [] };
		},
		async ReadResource(req) {
			const r = managed(req);
			const state = decodeValue(req.current_state as DynamicValue) as Row | null;
			if (!state) return { new_state: encodeValue(null) };
			try {
				return { new_state: encodeValue(await r.read(api(), state)), private: req.private };
			} catch (err) {
				return {
					new_state: req.current_state,
					diagnostics: diagnose(err, `reading the ${r.noun}`)
				};
			}
		},
		async PlanResourceChange(req) {
			const prior = decodeValue(req.prior_state as DynamicValue) as Row | null;
			const proposed = decodeValue(req.proposed_new_state as DynamicValue) as Row | null;
			const config = decodeValue(req.config as DynamicValue) as Row | null;
			if (!proposed || !config) return { planned_state: encodeValue(null) };
			const { planned, replace } = managed(req).plan(prior, config);
			return {
				planned_state: encodeValue(planned),
				requires_replace: replace.map(path),
				planned_private: req.prior_private
			};
		},
		async ApplyResourceChange(req) {
			const r = managed(req);
			const prior = decodeValue(req.prior_state as DynamicValue) as Row | null;
			const planned = decodeValue(req.planned_state as DynamicValue) as Row | null;
			const doing = `${!planned ? 'deleting' : prior ? 'updating' : 'creating'} the ${r.noun}`;
			try {
				if (!planned) {
					await r.remove(api(), prior!);
					return { new_state: encodeValue(null) };
				}
				const next = prior ? await r.update(api(), prior, planned) : await r.create(api(), planned);
				return { new_state: encodeValue(next) };
			} catch (err) {
				return {
					new_state: req.prior_state ?? encodeValue(null),
					diagnostics: diagnose(err, doing, attrNames(r))
				};
			}
		},
		async ImportResourceState(req) {
			const r = managed(req);
			try {
				const state = await r.importState(api(), String(req.id ?? ''));
				return { imported_resources: [{ type_name: req.type_name, state: encodeValue(state) }] };
			} catch (err) {
				if (err instanceof ImportError) return { diagnostics: [error(err.summary, err.detail)] };
				return { diagnostics: diagnose(err, `importing the ${r.noun}`) };
			}
		},
		async ReadDataSource(req) {
			const config = decodeValue(req.config as DynamicValue) as Row;
			const limit = (config.limit as number | null) ?? 50;
			const offset = (config.offset as number | null) ?? 0;
			try {
				if (req.type_name === 'upstate_monitors') {
					const rows = await window(
						(page, perPage) => api()('monitor.list', { page, perPage }) as Promise<Page>,
						offset,
						limit,
						50
					);
					return { state: encodeValue({ limit, offset, monitors: rows.map(monitorRow) }) };
				}
				const rows = await window(
					(page, perPage) => api()('privateLocation.list', { page, perPage }) as Promise<Page>,
					offset,
					limit,
					100
				);
				return { state: encodeValue({ limit, offset, private_locations: rows.map(locationRow) }) };
			} catch (err) {
				return { diagnostics: diagnose(err, `reading ${String(req.type_name)}`) };
			}
		},
		async StopProvider() {
			return {};
		}
	};
	return handlers;
}
