import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { locationInclude, toLocationListItem } from './internal.ts';
import { ListPrivateLocationsInput, type PrivateLocationListOutput } from './schemas.ts';

export async function listPrivateLocations(args: {
	ctx: ServiceContext;
	input?: ListPrivateLocationsInput;
}): Promise<PrivateLocationListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { page, perPage } = parseInput(ListPrivateLocationsInput, args.input);
	const where = { workspaceId: ctx.workspace.id };
	const [rows, totalSize] = await Promise.all([
		ctx.db.privateLocation.findMany({
			where,
			include: locationInclude,
			orderBy: { id: 'desc' },
			skip: (page - 1) * perPage,
			take: perPage
		}),
		ctx.db.privateLocation.count({ where })
	]);
	return {
		data: rows.map(toLocationListItem),
		pagination: { page, perPage, totalSize, totalPages: Math.ceil(totalSize / perPage) }
	};
}
