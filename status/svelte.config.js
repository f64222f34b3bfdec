import { createConfig } from '../svelte.config.js';

// Mail clients send RFC 8058 one-click unsubscribe POSTs with no Origin header, which the
// origin check would refuse. No status-site form acts on a session: each carries its own
// proof (password, one-time token, unsubscribe HMAC) or is harmless (double opt-in subscribe).
export default createConfig('UPSTATE_STATUS_PAGE_', { csrf: { trustedOrigins: ['*'] } });
