import type { Db } from '../../db/client.ts';
import { hashToken } from '../auth/request-magic-link.ts';
import { parseInput } from '../parse.ts';
import { AcceptInvitationInput, type InvitationPreview } from './schemas.ts';

// What the sign-in page tells someone following an invitation link before they sign in: the
// workspace and the address invited. The token is the credential; anything else is null.
export async function describeInvitation(args: {
	db: Db;
	input: AcceptInvitationInput;
}): Promise<InvitationPreview> {
	const { token } = parseInput(AcceptInvitationInput, args.input);
	const row = await args.db.invitation.findUnique({
		where: { tokenHash: hashToken(token) },
		include: { workspace: true }
	});
	if (!row || row.acceptedAt || row.expiresAt <= new Date()) return null;
	return { workspace: row.workspace.name, email: row.email };
}
