// Helpers for driving the built Worker as a browser would: same-origin form
// posts, cookies carried from response to request, redirects inspected.
import { env } from 'cloudflare:workers';
import { type Credentials, uniqueEmail } from '../../support/accounts';
import { confirmationLinkFor } from '../../support/confirmation-mail';
import { workerFetch } from './worker';

export const ORIGIN = 'http://ops-hub.test';

/** A cookie jar for one visitor. */
export class Visitor {
  private cookies = new Map<string, string>();

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  names(): string[] {
    return [...this.cookies.keys()];
  }

  value(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Sets a cookie (undefined: deletes it), as a browser holding that value would send it. */
  set(name: string, value: string | undefined): void {
    if (value === undefined) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }

  /** Stores the Set-Cookie headers of a response (deleting expired ones). */
  absorb(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) => {
        const [key, v] = a.trim().split('=');
        if (key.toLowerCase() === 'max-age') return Number(v) <= 0;
        if (key.toLowerCase() === 'expires') return new Date(v).getTime() <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async get(path: string, headers: HeadersInit = {}): Promise<Response> {
    const response = await workerFetch(
      new Request(`${ORIGIN}${path}`, { headers: { ...this.headers(), ...headers }, redirect: 'manual' }),
    );
    this.absorb(response);
    return response;
  }

  /** A same-origin form POST, as a browser without JavaScript sends it. */
  async post(path: string, fields: Record<string, string> | FormData, headers: HeadersInit = {}): Promise<Response> {
    const body = fields instanceof FormData ? fields : new URLSearchParams(fields);
    // A header given as '' is left out (a browser that sends no Origin, say), not sent empty.
    const sent = new Headers({ Origin: ORIGIN, ...this.headers() });
    for (const [name, value] of new Headers(headers)) {
      if (value === '') sent.delete(name);
      else sent.set(name, value);
    }
    const response = await workerFetch(new Request(`${ORIGIN}${path}`, { method: 'POST', body, headers: sent, redirect: 'manual' }));
    this.absorb(response);
    return response;
  }

  /** Follows a redirect response with a GET, as a browser does after a form post. */
  async follow(response: Response): Promise<Response> {
    const location = response.headers.get('Location');
    if (!location) throw new Error(`expected a redirect, got ${response.status}`);
    const url = new URL(location, ORIGIN);
    return this.get(`${url.pathname}${url.search}`);
  }

  private headers(): Record<string, string> {
    const cookie = this.cookieHeader;
    return cookie ? { Cookie: cookie } : {};
  }
}

/** The page's HTML without React's text-joining comments, as a reader sees the text. */
export async function pageText(response: Response): Promise<string> {
  return (await response.text()).replaceAll('<!-- -->', '');
}

/** The value a stat card with this label shows. */
export function statValue(html: string, label: string): string | undefined {
  return new RegExp(`>${label}</p>[\\s\\S]*?<p [^>]*data-stat-value=""[^>]*>([^<]*)</p>`).exec(html)?.[1];
}

/** Signs an existing user in through the /auth form; returns their visitor. */
export async function signIn(credentials: Credentials): Promise<Visitor> {
  const visitor = new Visitor();
  const response = await visitor.post('/auth', { intent: 'signin', ...credentials });
  if (response.status !== 302) throw new Error(`sign-in of ${credentials.email} failed: ${response.status}`);
  return visitor;
}

/** Signs up a brand-new account (its admin) through the /auth form. */
export async function signUpFreshAdmin(
  names: { first_name?: string; last_name?: string; company_name?: string } = { first_name: 'Test', last_name: 'Admin' },
): Promise<{ visitor: Visitor; email: string; password: string }> {
  const visitor = new Visitor();
  const email = uniqueEmail('admin');
  const password = 'correct-horse';
  const response = await visitor.post('/auth?tab=signup', { intent: 'signup', company_name: 'Test Company', email, password, ...names });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  await confirmThroughMail(visitor, email);
  return { visitor, email, password };
}

/** Follows the sign-up confirmation link mailed to `email` (the local backend's outbox): the visitor is then signed in. */
export async function confirmThroughMail(visitor: Visitor, email: string): Promise<Response> {
  const link = await confirmationLinkFor(env.SUPABASE_URL, email);
  const response = await visitor.get(`${link.pathname}${link.search}`);
  if (response.status !== 302 || !visitor.names().some((name) => name.includes('auth-token'))) {
    throw new Error(`confirming ${email} failed: ${response.status} ${response.headers.get('Location')}`);
  }
  return response;
}
