import {
	fromJson,
	toJson,
	type DescMessage,
	type DescMethodUnary,
	type DescService,
	type JsonObject,
	type JsonValue
} from '@bufbuild/protobuf';
import { StructSchema } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { AuditLogService } from '@upstate/proto/gen/upstate/v1/audit_log_pb.ts';
import { ComponentGroupService } from '@upstate/proto/gen/upstate/v1/component_group_pb.ts';
import { IncidentService } from '@upstate/proto/gen/upstate/v1/incident_pb.ts';
import { MaintenanceService } from '@upstate/proto/gen/upstate/v1/maintenance_pb.ts';
import { MonitorService } from '@upstate/proto/gen/upstate/v1/monitor_pb.ts';
import { NotificationChannelService } from '@upstate/proto/gen/upstate/v1/notification_channel_pb.ts';
import { PageComponentService } from '@upstate/proto/gen/upstate/v1/page_component_pb.ts';
import { PrivateLocationService } from '@upstate/proto/gen/upstate/v1/private_location_pb.ts';
import { ResponseLogService } from '@upstate/proto/gen/upstate/v1/response_log_pb.ts';
import { StatusPageService } from '@upstate/proto/gen/upstate/v1/status_page_pb.ts';
import { StatusReportService } from '@upstate/proto/gen/upstate/v1/status_report_pb.ts';
import { WorkspaceService } from '@upstate/proto/gen/upstate/v1/workspace_pb.ts';
import type { ProcedurePath, Transport } from './api.ts';
import type { Connection } from './config.ts';
import { ApiError, CliError, type FieldIssue } from './errors.ts';

// The CLI's calls on /rpc: router procedure → service and method (proto/README.md names them;
// cli/test/transport.test.ts checks this table against the server's own naming).
const S = {
	workspace: WorkspaceService,
	monitor: MonitorService,
	responseLog: ResponseLogService,
	statusPage: StatusPageService,
	pageComponent: PageComponentService,
	componentGroup: ComponentGroupService,
	statusReport: StatusReportService,
	maintenance: MaintenanceService,
	notificationChannel: NotificationChannelService,
	privateLocation: PrivateLocationService,
	incident: IncidentService,
	auditLog: AuditLogService
} satisfies Record<string, DescService>;

export const METHODS: Partial<Record<ProcedurePath, string>> = {
	'workspace.current': 'GetWorkspace',
	'workspace.whoami': 'Whoami',
	'monitor.list': 'ListMonitors',
	'monitor.get': 'GetMonitor',
	'monitor.create': 'CreateMonitor',
	'monitor.update': 'UpdateMonitor',
	'monitor.remove': 'DeleteMonitor',
	'monitor.trigger': 'TriggerMonitor',
	'monitor.recentChecks': 'ListRecentChecks',
	'responseLog.list': 'ListResponseLogs',
	'statusPage.list': 'ListStatusPages',
	'statusPage.get': 'GetStatusPage',
	'statusPage.create': 'CreateStatusPage',
	'statusPage.update': 'UpdateStatusPage',
	'statusPage.remove': 'DeleteStatusPage',
	'pageComponent.list': 'ListPageComponents',
	'pageComponent.create': 'CreatePageComponent',
	'pageComponent.update': 'UpdatePageComponent',
	'pageComponent.remove': 'DeletePageComponent',
	'componentGroup.list': 'ListComponentGroups',
	'componentGroup.create': 'CreateComponentGroup',
	'componentGroup.update': 'UpdateComponentGroup',
	'componentGroup.remove': 'DeleteComponentGroup',
	'statusReport.list': 'ListStatusReports',
	'statusReport.get': 'GetStatusReport',
	'statusReport.create': 'CreateStatusReport',
	'statusReport.update': 'UpdateStatusReport',
	'statusReport.addUpdate': 'AddStatusReportUpdate',
	'statusReport.resolve': 'ResolveStatusReport',
	'maintenance.list': 'ListMaintenances',
	'maintenance.get': 'GetMaintenance',
	'maintenance.create': 'CreateMaintenance',
	'maintenance.update': 'UpdateMaintenance',
	'maintenance.remove': 'DeleteMaintenance',
	'notificationChannel.list': 'ListNotificationChannels',
	'notificationChannel.get': 'GetNotificationChannel',
	'notificationChannel.create': 'CreateNotificationChannel',
	'notificationChannel.update': 'UpdateNotificationChannel',
	'notificationChannel.remove': 'DeleteNotificationChannel',
	'notificationChannel.sendTest': 'SendTestNotification',
	'privateLocation.list': 'ListPrivateLocations',
	'privateLocation.get': 'GetPrivateLocation',
	'privateLocation.create': 'CreatePrivateLocation',
	'privateLocation.update': 'UpdatePrivateLocation',
	'privateLocation.remove': 'DeletePrivateLocation',
	'incident.list': 'ListIncidents',
	'incident.get': 'GetIncident',
	'incident.acknowledge': 'AcknowledgeIncident',
	'incident.resolve': 'ResolveIncident',
	'auditLog.list': 'ListAuditLogs',
	'auditLog.get': 'GetAuditLog'
};

export function methodFor(path: string): DescMethodUnary {
	const name = METHODS[path as ProcedurePath];
	const service = S[path.split('.')[0] as keyof typeof S];
	const method = service?.methods.find((m) => m.name === name);
	if (!method || method.methodKind !== 'unary')
		throw new CliError(`upstate has no /rpc method for ${path}`, {
			hint: 'this is a bug in upstate: please report it'
		});
	// safe because methodKind was just checked to be unary
	return method as DescMethodUnary;
}

// A request in the router's own JSON, as the message's JSON: update inputs wrap what may be
// null or an empty list (`Nullable…` → `{}` or `{value}`, `…List` → `{values}`), so "leave as
// is" and "clear" differ on the wire.
// A map in an update input travels in its `<name>_map` wrapper (`{values}`, present = replace,
// even with none); the plain map beside it is deprecated and never sent.
function encode(desc: DescMessage, value: Record<string, unknown>): JsonObject {
	const out: JsonObject = {};
	for (const field of desc.fields) {
		if (field.deprecated) continue;
		const key = isMapWrapper(field) ? field.jsonName.replace(/_map$/, '') : field.jsonName;
		const v = value[key];
		if (v === undefined) continue;
		out[field.jsonName] =
			isMapWrapper(field) && field.fieldKind === 'message'
				? { values: encodeField(field.message.fields[0], v) }
				: encodeField(field, v);
	}
	return out;
}

type Field = DescMessage['fields'][number];
const isMapWrapper = (field: Field) =>
	field.fieldKind === 'message' &&
	/^upstate\.v1\.\w+Map$/.test(field.message.typeName) &&
	field.message.fields.length === 1 &&
	field.message.fields[0].fieldKind === 'map';

function encodeField(field: Field, v: unknown): JsonValue {
	if (field.fieldKind === 'message') {
		const msg = field.message;
		if (msg.typeName.startsWith('google.protobuf.')) return v as JsonValue;
		if (/^upstate\.v1\.Nullable/.test(msg.typeName)) {
			const inner = msg.fields[0];
			return v === null
				? {}
				: {
						value: inner.fieldKind === 'message' ? encodeValue(inner.message, v) : (v as JsonValue)
					};
		}
		if (/List$/.test(msg.typeName) && msg.fields.length === 1 && msg.fields[0].name === 'values') {
			const inner = msg.fields[0];
			return {
				values: (v as unknown[]).map((x) =>
					inner.fieldKind === 'list' && inner.listKind === 'message'
						? encode(inner.message, x as Record<string, unknown>)
						: (x as JsonValue)
				)
			};
		}
		return encodeValue(msg, v);
	}
	if (field.fieldKind === 'list' && field.listKind === 'message')
		return (v as unknown[]).map((x) => encodeValue(field.message, x));
	if (field.fieldKind === 'map' && field.mapKind === 'message') {
		const m = field.message;
		return Object.fromEntries(
			Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, encodeValue(m, x)])
		);
	}
	return v as JsonValue;
}
const encodeValue = (desc: DescMessage, v: unknown): JsonValue =>
	desc.typeName.startsWith('google.protobuf.')
		? (v as JsonValue)
		: encode(desc, v as Record<string, unknown>);

const CODES: Partial<Record<Code, string>> = {
	[Code.NotFound]: 'NOT_FOUND',
	[Code.InvalidArgument]: 'VALIDATION',
	[Code.AlreadyExists]: 'CONFLICT',
	[Code.Aborted]: 'CONFLICT',
	[Code.ResourceExhausted]: 'LIMIT_EXCEEDED',
	[Code.FailedPrecondition]: 'PRECONDITION_FAILED',
	[Code.Unauthenticated]: 'UNAUTHORIZED',
	[Code.PermissionDenied]: 'FORBIDDEN'
};

function toCliError(err: unknown, baseUrl: string): CliError {
	if (!(err instanceof ConnectError)) return new CliError(String(err));
	const cause = (err.cause as { code?: string } | undefined)?.code ?? '';
	if (
		err.code === Code.Unavailable &&
		/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET/.test(`${cause} ${err.rawMessage}`)
	)
		return new CliError(`cannot reach the API server at ${baseUrl} (${cause || err.rawMessage})`, {
			hint: 'start it (`npm start`), or point --base-url / UPSTATE_BASE_URL at the right host'
		});
	if (err.code === Code.Unimplemented)
		return new CliError(`${baseUrl} does not answer /rpc (${err.rawMessage})`, {
			hint: 'check --base-url: it is the API server (port 3001), which must be a version with /rpc'
		});
	// The server sends our code as a header and the field issues in a Struct detail.
	const detail = err.findDetails(StructSchema)[0];
	const body = detail
		? (toJson(StructSchema, detail) as { code?: string; issues?: FieldIssue[] })
		: {};
	const code = err.metadata.get('upstate-error-code') ?? body.code ?? CODES[err.code] ?? 'INTERNAL';
	const issues = body.issues ?? [];
	return new ApiError(code, err.rawMessage, issues);
}

// ConnectRPC (Connect protocol, JSON) to {base_url}/rpc with the key as x-service-key.
export function connectTransport(conn: Connection): Transport {
	const transport = createConnectTransport({ baseUrl: `${conn.baseUrl}/rpc`, httpVersion: '1.1' });
	const header = conn.apiKey ? { 'x-service-key': conn.apiKey } : undefined;
	return async (path, input) => {
		const method = methodFor(path);
		const request = fromJson(
			method.input,
			encode(method.input, (input ?? {}) as Record<string, unknown>)
		);
		try {
			const res = await transport.unary(method, undefined, undefined, header, request);
			return toJson(method.output, res.message, { alwaysEmitImplicit: true });
		} catch (err) {
			throw toCliError(err, conn.baseUrl);
		}
	};
}
