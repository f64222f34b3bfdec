export { getCurrentWorkspace } from './get-current.ts';
export { updateWorkspace } from './update.ts';
export { whoami } from './whoami.ts';
export * from './schemas.ts';
export {
	listMyWorkspaces,
	switchWorkspace,
	MyWorkspacesOutput,
	SwitchWorkspaceInput
} from './list-mine.ts';
export { getChecklist, ChecklistOutput } from './get-checklist.ts';
export { findWorkspaceRef, listWorkspaceRefs } from './refs.ts';
