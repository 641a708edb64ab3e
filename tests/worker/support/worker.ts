// The built Worker's handlers, called directly in the test isolate.
//
// Why not `exports.default.fetch`: under @cloudflare/vitest-pool-workers every
// request sent through it is slower than the one before, in the same workerd
// (cloudflare/workers-sdk#15446): measured here, an anonymous GET /auth went
// from 4 ms to 158 ms within 400 requests, and a hostile-input file's cases
// from 33 ms to 244 ms each over 900 cases, so a file's time grew with the
// square of its requests. The same handler called directly stays flat (9 ms
// after 1,200 requests). It is the same built module (build/server/index.js),
// with the same bindings (the test isolate's env); work handed to waitUntil
// runs after the answer, as in production, and is not awaited.
import { env } from 'cloudflare:workers';

interface BuiltWorker {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response>;
  scheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void>;
}

let loaded: Promise<BuiltWorker> | undefined;

function builtWorker(): Promise<BuiltWorker> {
  // The binding is the path from a test file in tests/worker; this file is one folder deeper.
  const path = `../${(env as unknown as { WORKER_MAIN_FOR_TESTS: string }).WORKER_MAIN_FOR_TESTS}`;
  loaded ??= (import(/* @vite-ignore */ path) as Promise<{ default: BuiltWorker }>).then((module) => module.default);
  return loaded;
}

/** Background work the handlers started (waitUntil): kept so that a failure shows in the test output. */
function executionContext(): ExecutionContext & { settled(): Promise<void> } {
  const pending: Promise<unknown>[] = [];
  return {
    waitUntil(promise: Promise<unknown>) {
      pending.push(promise.catch((error: unknown) => console.error('waitUntil work failed:', error)));
    },
    passThroughOnException() {},
    props: {},
    settled: async () => void (await Promise.all(pending)),
  } as unknown as ExecutionContext & { settled(): Promise<void> };
}

/**
 * A request as it arrives over HTTP: a body of known size comes with its
 * Content-Length (a browser's form post does; the runtime's own fetch adds it,
 * and some actions read it to decide before reading the body).
 */
async function asSent(request: Request): Promise<Request> {
  if (!request.body || request.headers.has('Content-Length')) return request;
  const body = await request.arrayBuffer();
  const headers = new Headers(request.headers);
  headers.set('Content-Length', String(body.byteLength));
  return new Request(request, { body, headers });
}

/** Sends a request to the built Worker, as the runtime would. */
export async function workerFetch(request: Request): Promise<Response> {
  const worker = await builtWorker();
  return worker.fetch(await asSent(request), env as unknown as Env, executionContext());
}

/** Runs the Worker's cron handler once (the jobs runner) and waits for the work it started. */
export async function workerScheduled(event: { cron: string; scheduledTime: number }): Promise<void> {
  const worker = await builtWorker();
  const ctx = executionContext();
  const controller = { cron: event.cron, scheduledTime: event.scheduledTime, noRetry() {} } as ScheduledController;
  await worker.scheduled(controller, env as unknown as Env, ctx);
  await ctx.settled();
}
