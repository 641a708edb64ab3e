// One local backend (fresh database with the demo data) and one app server
// (the built Worker under wrangler dev, pointed at that backend) for the run.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { freePort, startAppServer, type AppServer } from './support/app-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
    backendUrl: string;
    anonKey: string;
    serviceRoleKey: string;
    /** The database itself (loopback, for the run): a test seeds in bulk with one set-based statement. */
    sqlUrl: string;
  }
}

let app: AppServer | undefined;
let stopBackend: (() => Promise<void>) | undefined;
let sqlServer: Server | undefined;

export async function setup(project: TestProject) {
  // The app's origin must be known to the backend before either starts: mail links point at it.
  const appPort = await freePort();
  const backend = await startTestBackend({ seed: true, siteUrl: `http://127.0.0.1:${appPort}` });
  stopBackend = backend.stop;
  app = await startAppServer(
    {
      SUPABASE_URL: backend.url,
      SUPABASE_ANON_KEY: backend.anonKey,
      // The jobs runner (a test triggers it at /cdn-cgi/handler/scheduled, an action kicks it: a document's extraction) and its mail, as npm start passes them.
      SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey,
      MAIL_API_URL: `${backend.url}/_mail`,
      SITE_URL: `http://127.0.0.1:${appPort}`,
    },
    appPort,
  );
  project.provide('appUrl', app.url);
  project.provide('backendUrl', backend.url);
  project.provide('anonKey', backend.anonKey);
  project.provide('serviceRoleKey', backend.serviceRoleKey);
  // As the worker layer's (tests/worker/global-setup.ts): a statement posted here runs as the database's owner.
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
  project.provide('sqlUrl', `http://127.0.0.1:${(sqlServer.address() as AddressInfo).port}/`);
}

export async function teardown() {
  await new Promise((resolve) => (sqlServer ? sqlServer.close(resolve) : resolve(undefined)));
  await app?.stop();
  await stopBackend?.();
}
