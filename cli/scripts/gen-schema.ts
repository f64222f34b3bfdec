import { writeFileSync } from 'node:fs';
import { fileJsonSchema } from '../src/iac/schema.ts';

// Writes schema/upstate.schema.json, the JSON Schema of upstate.yaml (cli/test/schema.test.ts
// fails when the committed file is not what this writes).
export const SCHEMA_FILE = new URL('../schema/upstate.schema.json', import.meta.url);
export const schemaText = () => `${JSON.stringify(fileJsonSchema(), null, '\t')}\n`;

if (import.meta.url === `file://${process.argv[1]}`) writeFileSync(SCHEMA_FILE, schemaText());
