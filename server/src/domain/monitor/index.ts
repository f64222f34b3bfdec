export { createMonitor } from './create.ts';
export { updateMonitor } from './update.ts';
export { removeMonitor } from './remove.ts';
export { getMonitor } from './get.ts';
export { listMonitors } from './list.ts';
export * from './schemas.ts';
export { getMonitorStatus, MonitorStatusOutput } from './get-status.ts';
export { getMonitorSummary, MonitorSummaryInput, MonitorSummaryOutput } from './get-summary.ts';
export { getMonitorLatency, MonitorLatencyInput, MonitorLatencyOutput } from './get-latency.ts';
