import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { locationInclude, toLocationListItem } from './internal.ts';
import { ListPrivateLocationsInput, type PrivateLocationListOutput } from './schemas.ts';
import { paginate } from '../paginate.ts';

export async function listPrivateLocations(args: {
	ctx: ServiceContext;
	input?: ListPrivateLocationsInput;
}): Promise<PrivateLocationListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { page, perPage } = parseInput(ListPrivateLocationsInput, args.input);
	const where = { workspaceId: ctx.workspace.id };
	const { rows, pagination } = await paginate({
		page,
		perPage,
		rows: (window) =>
			ctx.db.privateLocation.findMany({
				where,
				include: locationInclude,
				orderBy: { id: 'desc' },
				...window
			}),
		count: () => ctx.db.privateLocation.count({ where })
	});
	return { data: rows.map(toLocationListItem), pagination };
}
