// Status pages are plain server-rendered HTML: no client router and no hydration payload, so
// they work without JavaScript and stay small (the few interactions are forms and CSS).
export const csr = false;
