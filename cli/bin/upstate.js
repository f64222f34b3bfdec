#!/usr/bin/env node
// Installed from the packed tarball, the CLI runs the bundle in dist/ (plain JavaScript, any
// Node >= 22.12). In the repository there is no dist/: it runs the TypeScript source, which
// Node 24 runs by stripping types (ARCHITECTURE.md).
import { existsSync } from 'node:fs';

const dist = new URL('../dist/upstate.js', import.meta.url);
await import(existsSync(dist) ? dist.href : new URL('../src/main.ts', import.meta.url).href);
