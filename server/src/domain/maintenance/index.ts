export { createMaintenance } from './create.ts';
export { updateMaintenance } from './update.ts';
export { removeMaintenance } from './remove.ts';
export { listMaintenances } from './list.ts';
export { getMaintenance } from './get.ts';
export * from './schemas.ts';
