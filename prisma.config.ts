import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaLibSQL } from '@prisma/adapter-libsql';

// The JS schema engine with the libSQL driver adapter: generate and migrate with no engine
// download (DESIGN.md, environment facts).
const url = process.env.DATABASE_URL || 'file:./data/upstate.db';

export default defineConfig({
	experimental: { adapter: true },
	engine: 'js',
	schema: path.join('prisma', 'schema.prisma'),
	migrations: { path: path.join('prisma', 'migrations') },
	async adapter() {
		return new PrismaLibSQL({ url, authToken: process.env.DATABASE_AUTH_TOKEN });
	}
});
