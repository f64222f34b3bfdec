import { createConfig } from '../svelte.config.js';

export default createConfig();
