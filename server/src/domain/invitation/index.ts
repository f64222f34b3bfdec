export { inviteMember } from './invite.ts';
export { listInvitations } from './list.ts';
export { revokeInvitation } from './revoke.ts';
export { acceptInvitation } from './accept.ts';
export * from './schemas.ts';
