// Which client a request is, for the per-IP limits (issue 30, decision 043).
// Behind Cloudflare (BEHIND_CLOUDFLARE=true, as the other Worker tests run)
// CF-Connecting-IP is Cloudflare's and each value is a client. Anywhere else
// (wrangler dev, npm start) a client can send its own: there a made-up
// CF-Connecting-IP must not buy a fresh budget. The built Worker's handler is
// called here with the env it has under `npm start` (no BEHIND_CLOUDFLARE).
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/accounts';
import { ORIGIN, pageText } from './support/app';

type Handler = { fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> };

async function builtWorker(): Promise<Handler> {
  const path = (env as unknown as { WORKER_MAIN_FOR_TESTS: string }).WORKER_MAIN_FOR_TESTS;
  return ((await import(/* @vite-ignore */ path)) as { default: Handler }).default;
}

const pending: Promise<unknown>[] = [];
const ctx = { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

function signInAttempt(ip: string): Request {
  return new Request(`${ORIGIN}/auth`, {
    method: 'POST',
    body: new URLSearchParams({ intent: 'signin', email: uniqueEmail('spoof'), password: 'guess-1' }),
    headers: { Origin: ORIGIN, 'CF-Connecting-IP': ip },
    redirect: 'manual',
  });
}

describe('the client IP the limits count', () => {
  it('off Cloudflare, a client-sent CF-Connecting-IP is ignored: new values do not reset the sign-in limit', async () => {
    const worker = await builtWorker();
    const local = { ...env, BEHIND_CLOUDFLARE: undefined } as unknown as Env;
    let n = 0;
    const spoofed = () => worker.fetch(signInAttempt(`192.0.2.${(n++ % 250) + 1}`), local, ctx);
    // The limiter's windows follow the clock's minutes: within 61 attempts it refuses, whatever IPs they claim.
    let response = await spoofed();
    while (response.status !== 429 && n < 61) {
      expect(response.status).toBe(400);
      response = await spoofed();
    }
    expect(response.status).toBe(429);
    expect(await pageText(response)).toContain('Too many attempts, try again in 1 minute');
    expect((await spoofed()).status).toBe(429);
    expect((await worker.fetch(signInAttempt('203.0.113.200'), local, ctx)).status).toBe(429);
    // Behind Cloudflare the same header is Cloudflare's: that client is not the one limited.
    const edge = { ...env, BEHIND_CLOUDFLARE: 'true' } as unknown as Env;
    expect((await worker.fetch(signInAttempt('203.0.113.201'), edge, ctx)).status).toBe(400);
    await Promise.allSettled(pending);
  });
});
