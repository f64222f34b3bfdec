import { createConfig } from '../svelte.config.js';

// `$status` is the status app's shared UI (status colours, labels, badges): written once there.
export default createConfig('UPSTATE_DASHBOARD_', { alias: { $status: '../status/src/lib' } });
