// The HTTP front of the local backend: one node:http server that turns node
// requests into web Requests, answers CORS like Supabase's gateway, limits
// body sizes, routes to REST / auth / functions / the outbox, and never lets a
// bad request take it down.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Outbox } from './context.ts';
import { DEMO_FEED_PATH } from './demo-tenders.ts';

export const MAX_BODY_BYTES = 1024 * 1024;
// Storage takes files up to its global limit (50 MB), plus room for a multipart envelope.
export const MAX_STORAGE_BODY_BYTES = 51 * 1024 * 1024;
// Past this we stop reading and drop the connection rather than drain forever.
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

export const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'authorization, x-client-info, apikey, content-type, prefer, range, range-unit, accept, accept-profile, content-profile, x-supabase-api-version, x-upsert, cache-control, if-none-match',
  'Access-Control-Expose-Headers': 'Content-Range, Content-Location, Location, Preference-Applied, X-Total-Count, X-Supabase-Api-Version',
  'Access-Control-Max-Age': '86400',
};

export interface Routes {
  rest(request: Request): Promise<Response>;
  auth(request: Request): Promise<Response>;
  storage(request: Request): Promise<Response>;
  functions(request: Request, name: string): Promise<Response>;
  outbox: Outbox;
  /** The demo tender feed (demo-tenders.ts), GET /_demo/tenders.json. */
  demoFeed?(request: Request): Response;
}

const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8' } });

/**
 * The outbox (/_outbox) and the mail API (/_mail) are tools of this machine:
 * read by the person at it (a browser tab opened on the URL), by tests and by
 * the Worker, never by a web page. So they carry no CORS headers (another
 * origin can neither read the mail, with its sign-in and signing links, nor
 * pass a preflight to clear it) and a request a browser sent from another
 * origin is refused outright (a form post needs no preflight).
 */
export const isLocalTool = (pathname: string) => pathname === '/_outbox' || pathname === '/_mail';

function fromAnotherOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site');
  return (origin !== null && origin !== new URL(request.url).origin) || (site !== null && site !== 'same-origin' && site !== 'none');
}

export async function route(request: Request, routes: Routes): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (isLocalTool(pathname) && fromAnotherOrigin(request)) return jsonResponse(403, { message: 'The outbox answers only on this machine, not to a web page' });
  if (request.method === 'OPTIONS') return new Response(null, { status: 204 });
  if (pathname === '/rest/v1' || pathname.startsWith('/rest/v1/')) return routes.rest(request);
  if (pathname === '/auth/v1' || pathname.startsWith('/auth/v1/')) return routes.auth(request);
  if (pathname.startsWith('/storage/v1/')) return routes.storage(request);
  const fn = /^\/functions\/v1\/([^/]+)\/?$/.exec(pathname);
  if (fn) return routes.functions(request, decodeURIComponent(fn[1]));
  // The platform's HTTP mail API, as the Worker and the functions call it in
  // production (MAIL_API_URL: Resend-style JSON), kept in the outbox.
  if (pathname === '/_mail' && request.method === 'POST') return acceptApiMail(request, routes.outbox);
  if (pathname === DEMO_FEED_PATH && routes.demoFeed) return routes.demoFeed(request);
  if (pathname === '/_outbox') {
    if (request.method === 'GET') return jsonResponse(200, routes.outbox.list());
    if (request.method === 'DELETE') {
      routes.outbox.clear();
      return new Response(null, { status: 204 });
    }
    return jsonResponse(405, { message: 'Method not allowed' });
  }
  return jsonResponse(404, { message: 'no Route matched with those values' });
}

async function acceptApiMail(request: Request, outbox: Outbox): Promise<Response> {
  let body: Record<string, unknown>;
  try {
    body = (await request.json()) as Record<string, unknown>;
  } catch {
    return jsonResponse(400, { message: 'Body must be JSON' });
  }
  const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : '');
  const to = Array.isArray(body.to) ? body.to.filter((v): v is string => typeof v === 'string').join(', ') : text('to');
  if (!to || !text('subject')) return jsonResponse(422, { message: 'to and subject are required' });
  const attachments = Array.isArray(body.attachments)
    ? (body.attachments as { filename?: string; content?: string; content_type?: string }[]).map((a) => ({
        filename: a.filename ?? '',
        contentType: a.content_type ?? 'application/octet-stream',
        content: a.content ?? '',
        size: Math.floor(((a.content ?? '').length * 3) / 4),
      }))
    : undefined;
  await outbox.send({ to, from: text('from'), subject: text('subject'), text: text('text'), html: text('html') || undefined, attachments, via: 'http' });
  return jsonResponse(200, { id: crypto.randomUUID() });
}

type BodyResult = { kind: 'ok'; body: Buffer | undefined } | { kind: 'too-large'; drained: boolean };

const isStorage = (url: string | undefined) => (url ?? '').startsWith('/storage/v1/');

function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers['content-length'] ?? 0) > limit;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
      else if (size > DRAIN_LIMIT_BYTES) {
        req.pause();
        resolve({ kind: 'too-large', drained: false });
      }
    });
    req.on('end', () => resolve(tooLarge ? { kind: 'too-large', drained: true } : { kind: 'ok', body: size > 0 ? Buffer.concat(chunks) : undefined }));
    req.on('error', reject);
  });
}

function toRequest(req: IncomingMessage, baseUrl: string, body: Buffer | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  // As the hosted API gateway does: the address this request came from is appended to
  // X-Forwarded-For, which the database's limits read (private.request_ip takes the last entry).
  const peer = req.socket.remoteAddress;
  if (peer) headers.set('x-forwarded-for', [headers.get('x-forwarded-for'), peer].filter(Boolean).join(', '));
  const method = req.method ?? 'GET';
  const hasBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', baseUrl), { method, headers, body: hasBody ? new Uint8Array(body) : undefined });
}

async function send(res: ServerResponse, response: Response, method: string, cors: boolean): Promise<void> {
  const headers: Record<string, string | string[]> = cors ? { ...CORS_HEADERS } : { 'x-content-type-options': 'nosniff' };
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const body = method === 'HEAD' || response.body === null ? null : Buffer.from(await response.arrayBuffer());
  if (body) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}

export interface ServerOptions {
  routes: Routes;
  /** Filled in once listening (the real port when 0 was asked for). */
  baseUrl: () => string;
  log: boolean;
}

export function createBackendServer({ routes, baseUrl, log }: ServerOptions): Server {
  const server = createServer(async (req, res) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    let status = 500;
    try {
      const storage = isStorage(req.url);
      const read = await readBody(req, storage ? MAX_STORAGE_BODY_BYTES : MAX_BODY_BYTES);
      let response: Response;
      if (read.kind === 'too-large') {
        response = storage
          ? jsonResponse(400, { statusCode: '413', code: 'EntityTooLarge', error: 'Payload too large', message: 'The object exceeded the maximum allowed size' })
          : jsonResponse(413, { code: 'PGRST413', message: `Request body exceeds the ${MAX_BODY_BYTES} byte limit`, details: null, hint: null });
        if (!read.drained) res.setHeader('Connection', 'close');
      } else {
        response = await route(toRequest(req, baseUrl(), read.body), routes);
      }
      status = response.status;
      await send(res, response, method, !isLocalTool((req.url ?? '').split('?')[0]));
      if (read.kind === 'too-large' && !read.drained) req.destroy();
    } catch (error) {
      console.error('local backend: unhandled error', error);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json', ...CORS_HEADERS });
        res.end(JSON.stringify({ code: 'PGRST000', message: 'Internal server error', details: null, hint: null }));
      } else res.destroy();
    } finally {
      if (log) console.log(`${method} ${req.url?.split('?')[0]} ${status} ${(performance.now() - started).toFixed(1)}ms`);
    }
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  return server;
}
