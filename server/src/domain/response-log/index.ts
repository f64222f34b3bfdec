export { listResponseLogs } from './list.ts';
export { getResponseLog } from './get.ts';
export * from './schemas.ts';
