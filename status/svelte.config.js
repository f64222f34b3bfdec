import { createConfig } from '../svelte.config.js';

export default createConfig('UPSTATE_STATUS_PAGE_');
