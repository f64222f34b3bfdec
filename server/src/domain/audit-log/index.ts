export { listAuditLogs } from './list.ts';
export { getAuditLog } from './get.ts';
export * from './schemas.ts';
