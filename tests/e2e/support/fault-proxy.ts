// A loopback HTTP proxy in front of the local backend that can be taken down,
// made to hang, or made to answer an error a given number of times: the faults
// a hosted backend shows (restarts, overload, gateway errors), on cue.
import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

interface Injected {
  method: string;
  path: RegExp;
  status: number;
  remaining: number;
}

export class FaultProxy {
  /** Every request that reached the proxy, as "METHOD /path". */
  readonly seen: string[] = [];
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

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    this.seen.push(`${req.method} ${path}`);
    if (this.hanging) return;
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
