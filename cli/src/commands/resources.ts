import type { Register } from '../program.ts';
import { registerMonitors } from './monitors.ts';
import { registerOperations } from './operations.ts';
import { registerPages } from './pages.ts';
import { registerPublishing } from './publishing.ts';

export const registerResources: Register = (program, wrap) => {
	registerMonitors(program, wrap);
	registerPages(program, wrap);
	registerPublishing(program, wrap);
	registerOperations(program, wrap);
};
