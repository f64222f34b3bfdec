export { createStatusPage } from './create.ts';
export { updateStatusPage } from './update.ts';
export { removeStatusPage } from './remove.ts';
export { getStatusPage } from './get.ts';
export { listStatusPages } from './list.ts';
export * from './public/index.ts';
export { verifyPassword } from './internal.ts';
export * from './schemas.ts';
