export { getCurrentWorkspace } from './get-current.ts';
export { updateWorkspace } from './update.ts';
export * from './schemas.ts';
