import type { Register } from '../program.ts';
import { registerIncidents } from './incidents.ts';
import { registerMaintenance } from './maintenance.ts';
import { registerMonitors } from './monitors.ts';
import { registerOperations } from './operations.ts';
import { registerPages } from './pages.ts';
import { registerPublishing } from './publishing.ts';

export const registerResources: Register = (program, wrap) => {
	registerMonitors(program, wrap);
	registerPages(program, wrap);
	registerPublishing(program, wrap);
	registerMaintenance(program, wrap);
	registerOperations(program, wrap);
	registerIncidents(program, wrap);
};
