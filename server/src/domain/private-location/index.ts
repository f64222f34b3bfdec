export { createPrivateLocation } from './create.ts';
export { updatePrivateLocation } from './update.ts';
export { removePrivateLocation } from './remove.ts';
export { getPrivateLocation } from './get.ts';
export { listPrivateLocations } from './list.ts';
export { authenticatePrivateLocation, type AuthenticatedLocation } from './authenticate.ts';
export * from './schemas.ts';
export { listAssignedMonitors } from './list-assigned.ts';
export { ensureLocalLocation, assignToLocal } from './ensure-local.ts';
