export { enqueueDelivery, enqueueDeliveries, type EnqueueDeliveryInput } from './enqueue.ts';
export { MAX_ATTEMPTS, DEFAULT_BASE_DELAY_MS, retryDelayMs } from './backoff.ts';
export {
	registerDeliveryHandler,
	deliveryHandlerFor,
	type DeliveryHandler,
	type DeliveryResult,
	type DeliveryRow
} from './registry.ts';
export { runDueDeliveries, type RunDueCounts, type RunDueOptions } from './run-due.ts';
export { createDeliveryWorker, type DeliveryWorker } from './worker.ts';
export * from './list-attempts.ts';
export {
	pruneDeliveries,
	deliveryRetentionMs,
	DELIVERY_RETENTION_FLOOR_MS,
	PruneDeliveriesInput,
	type PruneDeliveriesOutput
} from './prune-deliveries.ts';
export { listWorkspacesWithOldDeliveries } from './list-workspaces-with-old-deliveries.ts';
