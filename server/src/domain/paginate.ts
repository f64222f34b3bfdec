export type PageWindow = { skip: number; take: number };
export type PageInfo = { page: number; perPage: number; totalSize: number; totalPages: number };

// One page of a list (pages count from 1): its rows and the total, read together.
export async function paginate<Row>(args: {
	page: number;
	perPage: number;
	rows: (window: PageWindow) => Promise<Row[]>;
	count: () => Promise<number>;
}): Promise<{ rows: Row[]; pagination: PageInfo }> {
	const { page, perPage } = args;
	const [rows, totalSize] = await Promise.all([
		args.rows({ skip: (page - 1) * perPage, take: perPage }),
		args.count()
	]);
	return {
		rows,
		pagination: { page, perPage, totalSize, totalPages: Math.ceil(totalSize / perPage) }
	};
}
