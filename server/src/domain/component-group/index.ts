export { createComponentGroup } from './create.ts';
export { updateComponentGroup } from './update.ts';
export { removeComponentGroup } from './remove.ts';
export { listComponentGroups } from './list.ts';
export * from './schemas.ts';
