// The domain's zod schemas with no runtime beyond zod: what the CLI bundles to validate
// `upstate.yaml` by the server's own rules (`@upstate/server/schemas`). Nothing here may import
// Prisma, the database or Node services.
export { CreateMonitorInput, UpdateMonitorInput, MONITOR_TYPES } from './domain/monitor/schemas.ts';
export { CreateStatusPageInput, UpdateStatusPageInput } from './domain/status-page/schemas.ts';
export {
	CreateComponentGroupInput,
	UpdateComponentGroupInput
} from './domain/component-group/schemas.ts';
export {
	CreatePageComponentInput,
	UpdatePageComponentInput
} from './domain/page-component/schemas.ts';
export {
	CreateNotificationChannelInput,
	UpdateNotificationChannelInput,
	PROVIDER_TYPES,
	type ProviderType
} from './domain/notification-channel/schemas.ts';
export { SENSITIVE } from './domain/notification-channel/providers.ts';
export { CreateMaintenanceInput, UpdateMaintenanceInput } from './domain/maintenance/schemas.ts';
export { OPEN_STATUSES, IMPACTS } from './domain/status-report/schemas.ts';
export { withDefaultLocale } from './domain/status-page/schemas.ts';
export { hintsFor } from './domain/notification-channel/providers.ts';
