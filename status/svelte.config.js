import { createConfig } from '../svelte.config.js';

// Mail clients send RFC 8058 one-click unsubscribe POSTs with no Origin header, which the
// origin check would refuse. The check is made in hooks.server.ts instead (sameOriginPosts),
// for every POST but the unsubscribe route, whose HMAC token is its own proof.
export default createConfig('UPSTATE_STATUS_PAGE_', { csrf: { trustedOrigins: ['*'] } });
