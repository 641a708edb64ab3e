// JSON responses and errors shared by every server function. Failures are
// `{ error: "message" }` with a 4xx/5xx status, never a stack trace.
import type { FunctionDeps, FunctionHandler } from './deps.ts';

/** An error whose message is safe to show the caller, with its HTTP status. */
export class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
}

const MAX_BODY_BYTES = 64 * 1024;

/** The request body as a JSON object, or a 400. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw new HttpError(413, 'Request body is too large');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request body must be valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'Request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/**
 * Wraps a POST-only function body: other methods get 405, an HttpError
 * becomes its JSON error, anything unexpected a generic 500 (logged, not sent).
 */
export function postHandler(
  name: string,
  run: (request: Request, deps: FunctionDeps) => Promise<Response>,
): FunctionHandler {
  return async (request, deps) => {
    if (request.method !== 'POST') return json({ error: 'Method not allowed' }, 405);
    try {
      return await run(request, deps);
    } catch (error) {
      if (error instanceof HttpError) return json({ error: error.message }, error.status);
      console.error(`[${name}] unexpected error:`, error instanceof Error ? error.message : String(error));
      return json({ error: 'Internal server error' }, 500);
    }
  };
}
