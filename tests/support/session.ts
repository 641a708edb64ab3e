// A visitor of the app without JavaScript, for benchmarks and the first-run test: a cookie jar fed by Set-Cookie, and
// requests sent the way a browser without JavaScript sends them.
import { confirmationLinkFor } from './confirmation-mail.ts';

export interface Answer {
  status: number;
  location: string | null;
  body: string;
  ms: number;
}

export class Session {
  private readonly cookies = new Map<string, string>();
  readonly origin: string;
  /** The local backend, whose mail outbox holds the sign-up confirmation links (needed by signUp). */
  readonly backendUrl: string | undefined;

  constructor(origin: string, backendUrl?: string) {
    this.origin = origin;
    this.backendUrl = backendUrl;
  }

  /** The Cookie header this visitor sends. */
  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private absorb(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** One request, body read in full; redirects are not followed (their status is the answer). */
  async send(path: string, form?: Record<string, string | string[]>): Promise<Answer> {
    const started = performance.now();
    let body: URLSearchParams | undefined;
    if (form) {
      body = new URLSearchParams();
      for (const [name, value] of Object.entries(form)) for (const item of [value].flat()) body.append(name, item);
    }
    const response = await fetch(`${this.origin}${path}`, {
      method: form ? 'POST' : 'GET',
      body,
      headers: { cookie: this.cookieHeader, ...(form ? { origin: this.origin } : {}) },
      redirect: 'manual',
    });
    const text = await response.text();
    this.absorb(response);
    return { status: response.status, location: response.headers.get('location'), body: text, ms: performance.now() - started };
  }

  async signIn(email: string, password: string): Promise<void> {
    const answer = await this.send('/auth', { intent: 'signin', email, password });
    if (answer.status !== 302 || this.cookies.size === 0) throw new Error(`sign-in of ${email} failed: ${answer.status}`);
  }

  async signUp(email: string, password: string, firstName = 'Bench'): Promise<void> {
    if (!this.backendUrl) throw new Error('signUp needs the backend URL (new Session(origin, backendUrl)) to read the confirmation mail');
    const answer = await this.send('/auth?tab=signup', { intent: 'signup', company_name: `${firstName} Company`, email, password, first_name: firstName, last_name: 'User' });
    if (answer.status !== 200) throw new Error(`sign-up of ${email} failed: ${answer.status}`);
    // The address is proven by following the link mailed to it, which signs the visitor in.
    const link = await confirmationLinkFor(this.backendUrl, email);
    const confirmed = await this.send(`${link.pathname}${link.search}`);
    if (confirmed.status !== 302 || this.cookies.size === 0) throw new Error(`confirming ${email} failed: ${confirmed.status}`);
  }
}
