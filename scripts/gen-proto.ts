import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildProtoModel } from '../server/src/adapters/connect/proto.ts';
import { renderProtoFiles, type FieldNumbers } from '../server/src/adapters/connect/proto-print.ts';

// `npm run gen:proto`: the /rpc .proto files from the router (then `buf generate` makes the TS).
const root = join(import.meta.dirname, '..', 'proto');
const numbersFile = join(root, 'field-numbers.json');
const previous = JSON.parse(readFileSync(numbersFile, 'utf8')) as FieldNumbers;
const { files, numbers } = renderProtoFiles(buildProtoModel(), previous);
for (const [path, text] of files) {
	mkdirSync(dirname(join(root, path)), { recursive: true });
	writeFileSync(join(root, path), text);
}
writeFileSync(numbersFile, `${JSON.stringify(numbers, null, '\t')}\n`);
console.log(`[gen:proto] wrote files=${files.size} to proto/`);
