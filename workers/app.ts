// The Worker: edge cache for anonymous marketing pages, then React Router.
import { createRequestHandler, RouterContextProvider } from 'react-router';
import { executionContext, nonceContext } from '../app/lib/request-context';
import { forcedPeriodicJobs, runJobs } from '../app/jobs/runner.server';
import { withTrustedClientIp } from '../app/lib/client-ip.server';
import { crossSiteRefusal, isRefusedCrossSiteRequest } from '../app/lib/csrf.server';
import { applySecurityHeaders } from './security-headers';
import { handleCarrierHook, isCarrierHookPath } from '../app/features/shipments/carriers/carrier-hook.server';
import { EMAIL_HOOK_PATH, handleEmailHook } from '../app/features/helpdesk/inbound/email-hook.server';
import { receiveEmailMessage } from '../app/features/helpdesk/inbound/receive.server';
import { handleSmsHook, isSmsHookPath } from '../app/features/helpdesk/channels/sms-hook.server';
import { serviceClient } from '../app/jobs/runner.server';
import {
  CACHE_STATUS_HEADER,
  PRIVATE_CACHE_CONTROL,
  PUBLIC_CACHE_CONTROL,
  cacheKey,
  cacheKeyUrl,
  heldHit,
  holdCopy,
  isCacheableRequest,
  isShareable,
} from '../app/lib/edge-cache.server';

const DEV = import.meta.env.DEV;

type RequestHandler = ReturnType<typeof createRequestHandler>;
let handler: Promise<RequestHandler> | undefined;

/**
 * React Router's handler, made once per isolate. Given a function, React Router
 * imports the build and rebuilds its route tables (flatten, rank, compile every
 * path) on every request, which is what development's hot reload needs and
 * was a third of a bare render's CPU in production (issue 22). The build is
 * imported on the first render, not at start-up, so a cache hit never pays for it.
 */
function requestHandler(): Promise<RequestHandler> {
  if (DEV) return Promise.resolve(createRequestHandler(() => import('virtual:react-router/server-build'), import.meta.env.MODE));
  handler ??= import('virtual:react-router/server-build').then(
    (build) => createRequestHandler(build, import.meta.env.MODE),
    (error: unknown) => {
      handler = undefined; // the next request tries again
      throw error;
    },
  );
  return handler;
}

async function render(request: Request, ctx: ExecutionContext | null = null): Promise<{ response: Response; nonce: string }> {
  const nonce = crypto.randomUUID().replace(/-/g, '');
  const context = new RouterContextProvider();
  context.set(nonceContext, nonce);
  context.set(executionContext, ctx);
  const rendered = await (await requestHandler())(request, context);
  // Copy so headers are mutable whatever React Router returned.
  return { response: new Response(rendered.body, rendered), nonce };
}

async function serveFromEdgeCache(request: Request, ctx: ExecutionContext): Promise<Response> {
  const head = request.method === 'HEAD';
  // A hit needs nothing but the copy: no React Router, no session, no backend.
  const inMemory = heldHit(cacheKeyUrl(request), head);
  if (inMemory) return inMemory;
  const key = cacheKey(request);
  const cache = await caches.open('marketing');
  const hit = await cache.match(key);
  if (hit) return holdCopy(key.url, hit, head);

  const { response, nonce } = await render(new Request(request.url, { headers: request.headers }));
  applySecurityHeaders(response.headers, nonce, DEV, request.url);
  if (isShareable(response)) {
    response.headers.set('Cache-Control', PUBLIC_CACHE_CONTROL);
    ctx.waitUntil(cache.put(key, response.clone()));
  } else {
    response.headers.set('Cache-Control', PRIVATE_CACHE_CONTROL);
  }
  response.headers.set(CACHE_STATUS_HEADER, 'MISS');
  return response;
}

export default {
  async fetch(incoming, env, ctx) {
    // Before anything reads it: a client-sent CF-Connecting-IP is believed only behind Cloudflare.
    const request = withTrustedClientIp(incoming, env);
    // A provider's signed post of inbound mail carries no Origin: its signature is its check (decision 060).
    if (new URL(request.url).pathname === EMAIL_HOOK_PATH) {
      const hooked = await handleEmailHook(request, env);
      applySecurityHeaders(hooked.headers, '', DEV, request.url);
      hooked.headers.set('Cache-Control', PRIVATE_CACHE_CONTROL);
      return hooked;
    }
    // A tracking aggregator's signed post (issue 36, decision 061): likewise no Origin, its signature is its check.
    if (isCarrierHookPath(new URL(request.url).pathname)) {
      const hooked = await handleCarrierHook(request, env);
      applySecurityHeaders(hooked.headers, '', DEV, request.url);
      hooked.headers.set('Cache-Control', PRIVATE_CACHE_CONTROL);
      return hooked;
    }
    // Twilio's signed posts of SMS and WhatsApp (decision 076): likewise no Origin, the signature is the check.
    if (isSmsHookPath(new URL(request.url).pathname)) {
      const admin = serviceClient(env);
      const hooked = admin
        ? await handleSmsHook(request, admin)
        : new Response(JSON.stringify({ error: 'Inbound SMS is not set up (no service role key)' }), { status: 503 });
      applySecurityHeaders(hooked.headers, '', DEV, request.url);
      hooked.headers.set('Cache-Control', PRIVATE_CACHE_CONTROL);
      return hooked;
    }
    if (isRefusedCrossSiteRequest(request)) {
      const refusal = crossSiteRefusal();
      applySecurityHeaders(refusal.headers, '', DEV, request.url);
      refusal.headers.set('Cache-Control', PRIVATE_CACHE_CONTROL);
      return refusal;
    }
    if (isCacheableRequest(request)) return serveFromEdgeCache(request, ctx);

    const { response, nonce } = await render(request, ctx);
    applySecurityHeaders(response.headers, nonce, DEV, request.url);
    // Anything not deliberately public depends on who asked. A route may let the
    // browser alone keep it a while (`private, max-age=N`: a public link's logo, decision 051).
    const cacheControl = response.headers.get('Cache-Control');
    if (!cacheControl || !(cacheControl.includes('public') || /^private, max-age=\d+$/.test(cacheControl))) {
      response.headers.set('Cache-Control', PRIVATE_CACHE_CONTROL);
    }
    if (response.headers.has('Set-Cookie')) response.headers.set('Cache-Control', PRIVATE_CACHE_CONTROL);
    response.headers.set(CACHE_STATUS_HEADER, 'BYPASS');
    return response;
  },
  // The jobs runner (decision 021): the Cron Trigger of wrangler.toml, and
  // `npm start` every 15 s. It uses the service role key, which no page reads.
  // The tick's scheduled time is the run's clock (the daily sweeps read it; tests move it).
  // Inbound mail (Cloudflare Email Workers): into the helpdesk of the mailbox it was sent to (decision 060).
  async email(message, env) {
    await receiveEmailMessage(message, env);
  },
  async scheduled(controller, env) {
    // A test's `force:<kind>` cron (never a Cron Trigger's: see forcedPeriodicJobs) runs that periodic step now.
    const forcePeriodic = forcedPeriodicJobs(controller.cron);
    const summary = await runJobs(env, { budgetMs: 50_000, now: new Date(controller.scheduledTime), forcePeriodic });
    if (summary.claimed > 0) console.log(`jobs runner: ${JSON.stringify(summary)}`);
  },
} satisfies ExportedHandler<Env>;
