export { listMembers } from './list.ts';
export { updateMemberRole } from './update-role.ts';
export { removeMember } from './remove.ts';
export * from './schemas.ts';
