// Flash toasts (remix-toast) ride a signed cookie. The signing secret and the
// Secure flag are set once per isolate, before any action can flash a toast.
import { setToastCookieOptions } from 'remix-toast';

let configuredFor: string | undefined;

export function configureToastCookie(secret: string, requestUrl: string): void {
  const secure = new URL(requestUrl).protocol === 'https:';
  const key = `${secret}:${secure}`;
  if (configuredFor === key) return;
  setToastCookieOptions({ secrets: [secret], secure, sameSite: 'lax', httpOnly: true, path: '/' });
  configuredFor = key;
}
