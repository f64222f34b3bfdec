import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildProtoModel, rpcNames } from './proto.ts';
import { renderProtoFiles, type FieldNumbers } from './proto-print.ts';

// The /rpc contract cannot drift: the committed .proto files and TS are what the router makes
// today, `buf lint` is clean, and nothing breaks what `main` has already shipped.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const protoDir = path.join(root, 'proto');
const buf = path.join(root, 'node_modules', '.bin', 'buf');
// buf runs the local protoc-gen-es plugin, so node_modules/.bin goes first on its PATH.
const env = {
	...process.env,
	PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}`
};
const run = (args: string[]) =>
	execFileSync(buf, args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function listFiles(dir: string, base = dir): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = path.join(dir, name);
		return statSync(full).isDirectory() ? listFiles(full, base) : [path.relative(base, full)];
	});
}

const committedNumbers = () =>
	JSON.parse(readFileSync(path.join(protoDir, 'field-numbers.json'), 'utf8')) as FieldNumbers;

describe('the /rpc contract', () => {
	it('committed .proto files and field numbers are what `npm run gen:proto` writes', () => {
		const { files, numbers } = renderProtoFiles(buildProtoModel(), committedNumbers());
		const committed = listFiles(path.join(protoDir, 'upstate', 'v1')).map((f) => `upstate/v1/${f}`);
		expect(committed.sort()).toEqual([...files.keys()].sort());
		for (const [file, text] of files)
			expect(
				readFileSync(path.join(protoDir, file), 'utf8'),
				`${file}: run npm run gen:proto`
			).toBe(text);
		expect(numbers).toEqual(committedNumbers());
	});

	it('committed TypeScript in proto/gen is what buf generates from them', () => {
		const out = mkdtempSync(path.join(os.tmpdir(), 'upstate-proto-gen-'));
		run(['generate', '--template', 'buf.gen.api.yaml', '-o', out]);
		run(['generate', '-o', out]); // buf.gen.yaml: the probe ↔ ingest contract, also in proto/gen
		const fresh = path.join(out, 'proto', 'gen');
		const files = listFiles(fresh).sort();
		expect(listFiles(path.join(protoDir, 'gen')).sort()).toEqual(files);
		for (const file of files)
			expect(readFileSync(path.join(protoDir, 'gen', file), 'utf8'), file).toBe(
				readFileSync(path.join(fresh, file), 'utf8')
			);
	});

	it('passes buf lint', () => {
		expect(run(['lint'])).toBe('');
	});

	const against = ['main', 'origin/main'].find((ref) => {
		try {
			execFileSync('git', ['rev-parse', '--verify', '--quiet', ref], {
				cwd: root,
				stdio: 'ignore'
			});
			return true;
		} catch {
			return false;
		}
	});
	it.skipIf(!against)('has no breaking change against main (buf breaking)', () => {
		const old = mkdtempSync(path.join(os.tmpdir(), 'upstate-proto-main-'));
		const tar = execFileSync('git', ['archive', against ?? 'main', 'proto'], { cwd: root });
		execFileSync('tar', ['-x', '-C', old], { input: tar });
		const result = (() => {
			try {
				return run(['breaking', '--against', path.join(old, 'proto')]);
			} catch (err) {
				return String((err as { stdout?: string }).stdout ?? err);
			}
		})();
		expect(result).toBe('');
	});

	it('names services per entity and methods from meta or the standard verbs', () => {
		const names = buildProtoModel().services.map((s) => [s.name, s.rpcs.map((r) => r.method)]);
		expect(Object.fromEntries(names)).toMatchObject({
			MonitorService: expect.arrayContaining(['ListMonitors', 'GetMonitorStatus', 'DeleteMonitor']),
			ApiKeyService: ['ListApiKeys', 'CreateApiKey', 'RevokeApiKey'],
			WorkspaceService: ['GetWorkspace', 'Whoami', 'UpdateWorkspace']
		});
		const proc = { path: 'incident.resolve', type: 'mutation', meta: {} } as const;
		expect(rpcNames({ ...proc, input: undefined, output: undefined })).toEqual({
			entity: 'Incident',
			service: 'IncidentService',
			method: 'ResolveIncident'
		});
	});
});
