import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCommittedOpenApi } from '../server/src/adapters/rest/openapi.ts';

// `npm run gen:openapi`: openapi.json at the repository root from the router (what GET /openapi.json
// serves, with the default API address). openapi.test.ts fails while the two differ.
writeFileSync(join(import.meta.dirname, '..', 'openapi.json'), renderCommittedOpenApi());
