import { parseInput } from '../../parse.ts';
import { openPage, type PublicDeps } from './open-page.ts';
import { GetPublicPageInput, type PublicGateOutput } from './schemas.ts';

// The access decision and head alone: what the status site's render cache keys on, so the gate
// runs before any cached body is served.
export async function getPublicGate(args: {
	deps: PublicDeps;
	input: GetPublicPageInput;
}): Promise<PublicGateOutput> {
	const input = parseInput(GetPublicPageInput, args.input);
	const { access, head } = await openPage({
		deps: args.deps,
		locator: input.page,
		reader: input.reader
	});
	return { access, head };
}
