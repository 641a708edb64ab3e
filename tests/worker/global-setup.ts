// One local backend (fresh database from the migrated snapshot, demo data
// included) for the whole Worker run; the Worker under test is pointed at it
// through a loopback proxy that files each request under the user agent of the
// page view that made it (tests/support/backend-proxy.ts), so a test can count
// the backend requests of one page view (request-count.test.ts).
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { BackendProxy } from '../support/backend-proxy.ts';
import { startAiStandIn } from '../support/ai-stand-in.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    backendUrl: string;
    anonKey: string;
    serviceRoleKey: string;
    /** The key the Worker signs the client's IP and user agent with; the backend stored it. */
    auditSigningSecret: string;
    /** The backend's SMTP listener (mail sent through an account's email integration lands in its outbox). */
    smtpPort: number;
    /** The backend's HS256 secret: a test signs an access token with it as a project without a signing key would. */
    jwtSecret: string;
    /** POST a SQL statement here to run it as the database superuser (see support/backend.ts runSql). */
    sqlUrl: string;
    /** Broken SMTP servers (issue 30, item 4): one closes every connection at once, one greets and then closes. */
    smtpClosePort: number;
    smtpBannerClosePort: number;
    /** A server that accepts and never says a word. */
    smtpSilentPort: number;
    /** A loopback port nothing listens on (refused). */
    smtpDeadPort: number;
    /** An outside provider's stand-in (decision 076): Twilio's Messages API and an OpenAI-compatible chat completions API. */
    providerPort: number;
    /** The stand-in OpenAI-compatible API (tests/support/ai-stand-in.ts). */
    aiPort: number;
  }
}

let stop: (() => Promise<void>) | undefined;
let proxy: BackendProxy | undefined;
let sqlServer: Server | undefined;
let providerServer: Server | undefined;

/**
 * Plays Twilio (POST /2010-04-01/Accounts/<sid>/Messages.json: 201 with a
 * sid) and an AI provider (POST /v1/chat/completions: one draft); what each
 * was asked is read back at GET /_requests.
 */
async function providerStandIn(): Promise<number> {
  const asked: { path: string; authorization: string | undefined; body: string }[] = [];
  providerServer = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const path = request.url ?? '';
      if (request.method === 'GET' && path === '/_requests') {
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(asked));
        return;
      }
      asked.push({ path, authorization: request.headers.authorization, body });
      const media = /^(?:\/2010-04-01\/Accounts\/[^/]+\/Messages\/[^/]+\/Media|\/media-cdn)\/(\w+)$/.exec(path);
      if (request.method === 'GET' && media) {
        serveMedia(media[1], path.startsWith('/media-cdn') || Boolean(request.headers.authorization), response);
      } else if (path === '/v1/chat/completions') {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Dear customer, your parcel leaves today.' } }] }));
      } else if (/^\/2010-04-01\/Accounts\/[^/]+\/Messages\.json$/.test(path)) {
        response.writeHead(201, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ sid: `SM${randomBytes(16).toString('hex')}`, status: 'queued' }));
      } else {
        response.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => providerServer!.listen(0, '127.0.0.1', resolve));
  return (providerServer.address() as AddressInfo).port;
}
/**
 * Twilio's media (decision 089), by the URL's last part: 'ok' a small PNG (Twilio's API asks for the account's
 * credentials: 401 without), 'redirect' a 302 to the CDN's copy (as Twilio answers), 'big' bytes without end
 * (the fetcher must stop at its cap), 'hang' a start and then nothing, 'gone' a 404.
 */
function serveMedia(kind: string, authorized: boolean, response: ServerResponse): void {
  if (!authorized) {
    response.writeHead(401).end();
  } else if (kind === 'ok') {
    response.writeHead(200, { 'Content-Type': 'image/png' }).end(MEDIA_BYTES);
  } else if (kind === 'redirect') {
    response.writeHead(302, { Location: '/media-cdn/ok' }).end();
  } else if (kind === 'big') {
    response.writeHead(200, { 'Content-Type': 'video/mp4' });
    const chunk = Buffer.alloc(64 * 1024, 7);
    let sent = 0;
    // Written as the reader takes it, up to 64 MB: a reader without a cap would take it all.
    const more = () => {
      while (sent < 64 * 1024 * 1024 && !response.destroyed) {
        sent += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', more);
      }
      response.end();
    };
    more();
  } else if (kind === 'hang') {
    response.writeHead(200, { 'Content-Type': 'image/jpeg' });
    response.write(Buffer.alloc(10, 1));
    setTimeout(() => response.destroy(), 30_000).unref();
  } else {
    response.writeHead(404).end();
  }
}
/** The 'ok' media's bytes: a PNG signature and a recognisable tail. */
const MEDIA_BYTES = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('opshub-media-stand-in')]);
const brokenSmtp: TcpServer[] = [];
let aiStandIn: Awaited<ReturnType<typeof startAiStandIn>> | undefined;

/** A TCP server on loopback that does `onConnection` with each connection; its port. */
async function tcpServer(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createTcpServer((socket) => {
    socket.on('error', () => {});
    onConnection(socket);
  });
  brokenSmtp.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A port that was free a moment ago: bound, then let go. */
async function deadPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function setup(project: TestProject) {
  // Not the development default: the Worker must be handed the key the database holds.
  const auditSigningSecret = randomBytes(32).toString('hex');
  const backend = await startTestBackend({ seed: true, siteUrl: 'http://ops-hub.test', auditSigningSecret });
  stop = backend.stop;
  proxy = new BackendProxy(backend.url);
  await proxy.up();
  // What no API offers, on purpose: a test that must see a screen survive a
  // failing database read breaks it for real (a revoked grant) and repairs it.
  // Loopback only, for the life of the run.
  sqlServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      backend.db
        .query(Buffer.concat(chunks).toString('utf8'))
        .then((result) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(result.rows)))
        .catch((error: Error) => res.writeHead(400, { 'Content-Type': 'text/plain' }).end(error.message));
    });
  });
  await new Promise<void>((resolve) => sqlServer!.listen(0, '127.0.0.1', resolve));
  project.provide('backendUrl', proxy.url);
  project.provide('anonKey', backend.anonKey);
  project.provide('serviceRoleKey', backend.serviceRoleKey);
  project.provide('auditSigningSecret', auditSigningSecret);
  project.provide('smtpPort', backend.smtpPort ?? 0);
  project.provide('jwtSecret', backend.jwtSecret);
  project.provide('smtpClosePort', await tcpServer((socket) => socket.destroy()));
  // The banner is what a careless screen would show an admin: it must never reach the page.
  project.provide('smtpBannerClosePort', await tcpServer((socket) => socket.end('220 mx.internal SECRET-BANNER ESMTP ready\r\n')));
  project.provide('smtpSilentPort', await tcpServer(() => {}));
  project.provide('smtpDeadPort', await deadPort());
  project.provide('providerPort', await providerStandIn());
  project.provide('sqlUrl', `http://127.0.0.1:${(sqlServer.address() as AddressInfo).port}/`);
  aiStandIn = await startAiStandIn();
  project.provide('aiPort', aiStandIn.port);
}

export async function teardown() {
  for (const res of aiStandIn?.hanging ?? []) res.destroy();
  aiStandIn?.server.closeAllConnections();
  await new Promise((resolve) => (aiStandIn ? aiStandIn.server.close(resolve) : resolve(null)));
  await new Promise((resolve) => sqlServer?.close(resolve));
  providerServer?.closeAllConnections();
  await new Promise((resolve) => providerServer?.close(resolve));
  for (const server of brokenSmtp) {
    // The silent server's connections stay open until dropped.
    server.unref();
    await new Promise((resolve) => { server.close(resolve); setTimeout(resolve, 1000); });
  }
  await proxy?.stop();
  await stop?.();
}
