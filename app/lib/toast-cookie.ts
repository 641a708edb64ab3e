/**
 * The flash toast's cookie (remix-toast's own default name, set explicitly
 * in toast.server.ts): read by the root loader and, as a personal cookie,
 * kept out of the edge cache.
 */
export const TOAST_COOKIE = 'toast-session';
