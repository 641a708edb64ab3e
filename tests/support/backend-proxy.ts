// A loopback HTTP proxy in front of the local backend (Node only: started by a
// layer's global setup or a test file running in Node, never imported inside workerd).
// - Faults (e2e): it can be taken down, made to hang, or made to answer an
//   error a given number of times: the faults a hosted backend shows
//   (restarts, overload, gateway errors), on cue.
// - Counting (worker): every request the app makes carries the client's user
//   agent, signed, in x-opshub-client (app/lib/audit-client.server.ts); the
//   proxy files each request under that user agent, so a test that gives a page
//   view a user agent of its own reads back exactly the backend requests that
//   page view made, whatever other test files run at the same time:
//   GET <proxy>/_requests?client=<user agent> answers ["GET /rest/v1/users?select=*&...", ...].
// - Round trips (worker, bench): a client whose user agent starts with
//   DELAYED_CLIENT has each of its requests held DELAY_MS before it is
//   forwarded, and GET <proxy>/_requests?client=<ua>&timing=1 answers each
//   request with when it arrived and when its answer ended, so a test can tell
//   requests made in parallel (they overlap) from requests made one after
//   another (sequentialRoundTrips).
import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DELAYED_CLIENT, DELAY_MS, type TimedRequest } from './round-trips.ts';

interface Injected {
  method: string;
  path: RegExp;
  status: number;
  remaining: number;
}

/** Where the proxy answers with the requests filed under one client (never forwarded). */
export const REQUESTS_PATH = '/_requests';
/** The app's signed client header: `<seconds>.<base64 of {"ip","ua"}>.<HMAC>` (app/lib/audit-client.server.ts). */
const CLIENT_HEADER = 'x-opshub-client';

/** The user agent inside a signed client header (the signature is the database's business, not the proxy's). */
function userAgentOf(header: string | string[] | undefined): string | null {
  const encoded = typeof header === 'string' ? header.split('.')[1] : undefined;
  if (!encoded) return null;
  try {
    const { ua } = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as { ua?: unknown };
    return typeof ua === 'string' ? ua : null;
  } catch {
    return null;
  }
}

export class BackendProxy {
  /** Every request that reached the proxy, as "METHOD /path". */
  readonly seen: string[] = [];
  /** The requests that carried a signed client header, as "METHOD /path?query" with their times, by the client's user agent. */
  private readonly byClient = new Map<string, TimedRequest[]>();
  private readonly startedAt = performance.now();
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private hanging = false;
  private injected: Injected[] = [];
  private port = 0;
  private readonly target: string;

  constructor(target: string) {
    this.target = target;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Listens (again, on the same port after `down`). */
  async up(): Promise<void> {
    this.hanging = false;
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Stops listening and drops open connections: the backend is gone. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  /** Accepts requests and never answers them. */
  hang(): void {
    this.hanging = true;
  }

  /** Answers the next `times` matching requests with `status` instead of forwarding them. */
  fail(method: string, path: RegExp, status: number, times: number): void {
    this.injected.push({ method, path, status, remaining: times });
  }

  count(method: string, path: RegExp): number {
    return this.seen.filter((line) => line.startsWith(`${method} `) && path.test(line.slice(method.length + 1))).length;
  }

  /** The requests made for a client with this user agent, in the order they arrived. */
  requestsOf(userAgent: string): string[] {
    return this.timedRequestsOf(userAgent).map((timed) => timed.request);
  }

  /** The same, with when each arrived and when its answer ended. */
  timedRequestsOf(userAgent: string): TimedRequest[] {
    return (this.byClient.get(userAgent) ?? []).map((timed) => ({ ...timed }));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    if (path === REQUESTS_PATH) {
      const query = new URL(req.url ?? '/', 'http://proxy.invalid').searchParams;
      const client = query.get('client') ?? '';
      const answer = query.get('timing') === '1' ? this.timedRequestsOf(client) : this.requestsOf(client);
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      return;
    }
    this.seen.push(`${req.method} ${path}`);
    const client = userAgentOf(req.headers[CLIENT_HEADER]);
    if (client !== null) {
      const timed: TimedRequest = { request: `${req.method} ${req.url ?? '/'}`, start: performance.now() - this.startedAt, end: Infinity };
      res.on('close', () => (timed.end = performance.now() - this.startedAt));
      const log = this.byClient.get(client) ?? [];
      log.push(timed);
      this.byClient.set(client, log);
    }
    if (this.hanging) return;
    if (client?.startsWith(DELAYED_CLIENT)) {
      setTimeout(() => this.pass(req, res, path), DELAY_MS);
      return;
    }
    this.pass(req, res, path);
  }

  private pass(req: IncomingMessage, res: ServerResponse, path: string): void {
    const fault = this.injected.find((f) => f.remaining > 0 && f.method === req.method && f.path.test(path));
    if (fault) {
      fault.remaining -= 1;
      req.resume();
      res.writeHead(fault.status, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'injected fault' }));
      return;
    }
    const target = new URL(req.url ?? '/', this.target);
    const upstream = forward(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }

  async stop(): Promise<void> {
    await this.down();
  }
}
