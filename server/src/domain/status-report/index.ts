export { createStatusReport } from './create.ts';
export { updateStatusReport } from './update.ts';
export { addStatusReportUpdate } from './add-update.ts';
export { resolveStatusReport } from './resolve.ts';
export { listStatusReports } from './list.ts';
export { getStatusReport } from './get.ts';
export * from './schemas.ts';
