export { inviteMember } from './invite.ts';
export { listInvitations } from './list.ts';
export { revokeInvitation } from './revoke.ts';
export { acceptInvitation } from './accept.ts';
export { describeInvitation } from './describe.ts';
export * from './schemas.ts';
