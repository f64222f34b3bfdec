import type { ProcedurePath } from '../../cli/src/api.ts';
import { ApiError, CliError } from '../../cli/src/errors.ts';
import { connectTransport } from '../../cli/src/transport.ts';
import { decodeValue, encodeValue, UNKNOWN, type DynamicValue, type Value } from './codec.ts';
import { DEFAULT_BASE_URL } from './config.ts';
import { DATA_SOURCES, locationRow, monitorRow, window, type Page } from './data-sources.ts';
import {
	createInput,
	MANAGED_TYPES,
	MONITOR_SCHEMA,
	monitorState,
	planMonitor,
	updateInput
} from './monitor.ts';
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
	description: 'Upstate: monitors and private locations over the ConnectRPC API ({base_url}/rpc).',
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
const RESOURCES: Record<string, Block> = { upstate_monitor: MONITOR_SCHEMA };

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
export function diagnose(err: unknown, doing: string): Diag[] {
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
			NOT_FOUND: 'Check the id: it must be one of this workspace’s (see data.upstate_monitors).',
			LIMIT_EXCEEDED:
				"The workspace's plan does not allow this: remove something or change the plan."
		};
		return [
			error(
				`Upstate refused ${doing}: ${err.message}`,
				`${err.code}. ${next[err.code] ?? err.hint ?? ''}`.trim()
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

	async function getMonitor(id: number): Promise<Record<string, unknown> | null> {
		try {
			return await api()('monitor.get', { monitorId: id });
		} catch (err) {
			if (err instanceof ApiError && err.code === 'NOT_FOUND') return null;
			throw err;
		}
	}

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
					Object.entries(RESOURCES).map(([k, v]) => [k, toProto(v)])
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
			const t = config?.type;
			if (typeof t === 'string' && !MANAGED_TYPES.includes(t))
				return {
					diagnostics: [
						error(
							`Unsupported monitor type "${t}"`,
							t === 'grpc'
								? 'gRPC monitors are managed from the dashboard, the ConnectRPC API or the CLI, not Terraform.'
								: `Use one of: ${MANAGED_TYPES.join(', ')}.`,
							'type'
						)
					]
				};
			return { diagnostics: [] };
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
			const state = decodeValue(req.current_state as DynamicValue) as Row | null;
			if (!state) return { new_state: encodeValue(null) };
			try {
				const m = await getMonitor(Number(state.id));
				return {
					new_state: encodeValue(m ? monitorState(m, state) : null),
					private: req.private
				};
			} catch (err) {
				return { new_state: req.current_state, diagnostics: diagnose(err, 'reading the monitor') };
			}
		},
		async PlanResourceChange(req) {
			const prior = decodeValue(req.prior_state as DynamicValue) as Row | null;
			const proposed = decodeValue(req.proposed_new_state as DynamicValue) as Row | null;
			const config = decodeValue(req.config as DynamicValue) as Row | null;
			if (!proposed || !config) return { planned_state: encodeValue(null) };
			const { planned, replace } = planMonitor(prior, config);
			return {
				planned_state: encodeValue(planned),
				requires_replace: replace ? [path('type')] : [],
				planned_private: req.prior_private
			};
		},
		async ApplyResourceChange(req) {
			const prior = decodeValue(req.prior_state as DynamicValue) as Row | null;
			const planned = decodeValue(req.planned_state as DynamicValue) as Row | null;
			try {
				if (!planned) {
					try {
						await api()('monitor.remove', { monitorId: Number(prior!.id) });
					} catch (err) {
						if (!(err instanceof ApiError && err.code === 'NOT_FOUND')) throw err;
					}
					return { new_state: encodeValue(null) };
				}
				const m = prior
					? await api()('monitor.update', updateInput(prior, planned))
					: await api()('monitor.create', createInput(planned));
				return { new_state: encodeValue(monitorState(m, planned)) };
			} catch (err) {
				const doing = !planned
					? 'deleting the monitor'
					: prior
						? 'updating the monitor'
						: 'creating the monitor';
				return {
					new_state: req.prior_state ?? encodeValue(null),
					diagnostics: diagnose(err, doing)
				};
			}
		},
		async ImportResourceState(req) {
			const id = String(req.id ?? '');
			if (!/^\d+$/.test(id))
				return {
					diagnostics: [
						error(
							`"${id}" is not a monitor id`,
							'Import with the numeric id, e.g. `terraform import upstate_monitor.web 42`.'
						)
					]
				};
			try {
				const m = await getMonitor(Number(id));
				if (!m)
					return {
						diagnostics: [
							error(
								`Monitor ${id} not found`,
								'No monitor with this id exists in the workspace of this API token: check the id (data.upstate_monitors lists them).'
							)
						]
					};
				if (!MANAGED_TYPES.includes(m.type as string))
					return {
						diagnostics: [
							error(
								`Monitor ${id} is a ${String(m.type)} monitor`,
								'gRPC monitors are managed from the dashboard, the ConnectRPC API or the CLI, not Terraform.'
							)
						]
					};
				return {
					imported_resources: [
						{ type_name: req.type_name, state: encodeValue(monitorState(m, null)) }
					]
				};
			} catch (err) {
				return { diagnostics: diagnose(err, 'importing the monitor') };
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
