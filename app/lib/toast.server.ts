// Flash toasts (remix-toast) ride a signed cookie, read by the root loader on
// the next request. One case needs more: a form posted WITHOUT JavaScript that
// answers with data (a 400 with the form re-rendered) is rendered in the same
// request as its action, so the cookie would only show the toast one page
// later. For such document requests the toast is handed to the root loader
// through the request context instead, and no cookie is set.
import { env } from 'cloudflare:workers';
import { serializeCookieHeader } from '@supabase/ssr';
import { data as dataResponse, createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router';
import { dataWithToast, getToast, redirectWithToast, setToastCookieOptions, type ToastMessage } from 'remix-toast';
import { cookieNames, isSecureRequest } from '~/lib/request-cookies';
import { TOAST_COOKIE } from '~/lib/toast-cookie';
import type { ToastLink } from '~/lib/toast-link';

let configuredFor: string | undefined;

/**
 * remix-toast keeps its cookie options in module state. They depend on the
 * Worker's secret and on whether the site is served over https (a Secure
 * cookie), so they are set here, before any loader or action can flash a
 * toast, and only when they change (in practice once per isolate).
 */
export const toastCookieMiddleware: MiddlewareFunction<Response> = ({ request }, next) => {
  const secure = isSecureRequest(request);
  const key = `${env.SESSION_SECRET}:${secure}`;
  if (configuredFor !== key) {
    setToastCookieOptions({ name: TOAST_COOKIE, secrets: [env.SESSION_SECRET], ...cookieOptions(secure) });
    configuredFor = key;
  }
  return next();
};

/** The toast cookie's attributes, when it is set and when it is deleted. */
const cookieOptions = (secure: boolean) => ({ path: '/', httpOnly: true, secure, sameSite: 'lax' as const });

/**
 * The toast the request's cookie carries, and the header that deletes the
 * cookie. A toast is shown once, so the cookie goes once read (remix-toast
 * would write back an empty signed session, a cookie that then rides on every
 * later request and keeps the visitor out of the edge cache). Without the
 * cookie there is nothing to read or sign.
 */
export async function readToast(request: Request): Promise<{ toast?: ToastMessage; headers?: Headers }> {
  if (!cookieNames(request).includes(TOAST_COOKIE)) return {};
  const { toast } = await getToast(request);
  const deleted = serializeCookieHeader(TOAST_COOKIE, '', { ...cookieOptions(isSecureRequest(request)), maxAge: 0 });
  return { toast, headers: new Headers({ 'Set-Cookie': deleted }) };
}

export const pendingToastContext = createContext<ToastMessage | null>(null);

interface ToastArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

/** React Router's JavaScript client fetches `<path>.data`; a browser without JS posts to the page itself. */
function isDocumentRequest(request: Request): boolean {
  return !new URL(request.url).pathname.endsWith('.data');
}

async function dataWithToastNow<T>({ request, context }: ToastArgs, payload: T, toast: ToastMessage, init?: ResponseInit) {
  if (isDocumentRequest(request)) {
    context.set(pendingToastContext, toast);
    return dataResponse(payload, init);
  }
  return dataWithToast(payload, toast, init);
}

type ToastText = string | { message: string; description?: string };
const asToast = (text: ToastText, type: ToastMessage['type']): ToastMessage =>
  typeof text === 'string' ? { message: text, type } : { message: text.message, description: text.description, type };

export function dataWithError<T>(args: ToastArgs, payload: T, toast: ToastText, init?: ResponseInit) {
  return dataWithToastNow(args, payload, asToast(toast, 'error'), init);
}

export function dataWithInfo<T>(args: ToastArgs, payload: T, toast: ToastText, init?: ResponseInit) {
  return dataWithToastNow(args, payload, asToast(toast, 'info'), init);
}

export function dataWithSuccess<T>(args: ToastArgs, payload: T, toast: ToastText, init?: ResponseInit) {
  return dataWithToastNow(args, payload, asToast(toast, 'success'), init);
}

/**
 * A success toast that links to the record just made ('Quote Q-2026-0007
 * created' → the quote). remix-toast keeps extra fields of a toast (its schema
 * is loose), so the link rides the same signed cookie; FlashToast renders it.
 */
export function redirectWithCreated(to: string, message: string, link: ToastLink) {
  return redirectWithToast(to, { message, type: 'success', link });
}
