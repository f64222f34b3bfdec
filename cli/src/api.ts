import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@upstate/server';

// The CLI speaks to the router's procedures by their tRPC path (`monitor.list`); the transport
// carries each call over ConnectRPC at {base_url}/rpc. Types come from the router itself, so a
// changed input or output is a compile error here, never a silent drift.
type In = inferRouterInputs<AppRouter>;
type Out = inferRouterOutputs<AppRouter>;
type PathsOf<R extends keyof In> = R extends string
	? { [P in keyof In[R]]: P extends string ? `${R}.${P}` : never }[keyof In[R]]
	: never;
export type ProcedurePath = PathsOf<keyof In>;
type Split<P> = P extends `${infer R}.${infer M}` ? [R, M] : never;
export type InputOf<P extends ProcedurePath> =
	Split<P> extends [infer R extends keyof In, infer M]
		? M extends keyof In[R]
			? In[R][M]
			: never
		: never;
export type OutputOf<P extends ProcedurePath> =
	Split<P> extends [infer R extends keyof Out, infer M]
		? M extends keyof Out[R]
			? Out[R][M]
			: never
		: never;

export type Transport = (path: string, input: unknown) => Promise<unknown>;

export type Api = {
	baseUrl: string;
	call<P extends ProcedurePath>(path: P, input: InputOf<P>): Promise<OutputOf<P>>;
};

export function createApi(baseUrl: string, transport: Transport): Api {
	return {
		baseUrl,
		// safe because the transport returns what the server's procedure at `path` outputs
		call: (path, input) => transport(path, input) as never
	};
}

// Every page of a paginated list, for commands and plans that need the whole set.
export async function listAll<T>(
	fetchPage: (page: number) => Promise<{ data: T[]; pagination: { totalPages: number } }>
): Promise<T[]> {
	const first = await fetchPage(1);
	const rest = [];
	for (let page = 2; page <= first.pagination.totalPages; page++) rest.push(await fetchPage(page));
	return [...first.data, ...rest.flatMap((p) => p.data)];
}
