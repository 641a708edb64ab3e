// Sidebar open/collapsed state, kept in the `sidebar:state` cookie for 7 days
// (docs/product-guide.md) and read on the server so the first paint is already right.
export const SIDEBAR_COOKIE = 'sidebar:state';
export const SIDEBAR_COOKIE_MAX_AGE = 7 * 24 * 60 * 60;
export const SIDEBAR_WIDTH = '16rem';
export const SIDEBAR_WIDTH_ICON = '3rem';
export const SIDEBAR_WIDTH_MOBILE = '18rem';
export const MOBILE_BREAKPOINT_PX = 768;
export const SIDEBAR_KEYBOARD_SHORTCUT = 'b';

/** Expanded unless the cookie says 'false'. */
export function readSidebarOpen(cookieHeader: string | null): boolean {
  if (!cookieHeader) return true;
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SIDEBAR_COOKIE) return rest.join('=') !== 'false';
  }
  return true;
}

export function sidebarCookie(open: boolean): string {
  return `${SIDEBAR_COOKIE}=${open}; Path=/; Max-Age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax`;
}
