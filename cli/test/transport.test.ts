import { describe, expect, it } from 'vitest';
import { listProcedures } from '../../server/src/adapters/procedures.ts';
import { rpcNames } from '../../server/src/adapters/connect/proto.ts';
import { METHODS, methodFor } from '../src/transport.ts';

describe("the CLI's /rpc method table", () => {
	it('names every call exactly as the server serves it', () => {
		const procedures = new Map(listProcedures().map((p) => [p.path, p]));
		for (const [path, method] of Object.entries(METHODS)) {
			const proc = procedures.get(path);
			expect(proc, path).toBeDefined();
			const names = rpcNames(proc as NonNullable<typeof proc>);
			expect({ path, method, service: methodFor(path).parent.name }).toEqual({
				path,
				method: names.method,
				service: names.service
			});
		}
	});
});
