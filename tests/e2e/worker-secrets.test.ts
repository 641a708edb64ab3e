// The Worker's secrets never travel on a command line (issue 30): `npm start`
// passed the service role key as `wrangler dev --var`, which any user of the
// machine reads with `ps`. The app server is started as `npm start` starts it
// (scripts/wrangler-dev.mjs); no process of the machine has the key in its
// arguments, and the Worker still has it: its jobs runner calls the backend
// (here a recorder standing in for it) with that key.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAppServer, type AppServer } from './support/app-server.ts';

const KEY = `secret-service-key-${randomBytes(12).toString('hex')}`;
const ANON = `anon-key-${randomBytes(12).toString('hex')}`;

let app: AppServer;
let recorder: Server;
const keysSeen: string[] = [];

beforeAll(async () => {
  // The backend, as far as the jobs runner is concerned: records the key it is called with, has no jobs.
  recorder = createServer((req, res) => {
    keysSeen.push(String(req.headers.apikey ?? ''));
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(req.url?.includes('claim_jobs') ? '[]' : 'null');
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
  app = await startAppServer({ SUPABASE_URL: url, SUPABASE_ANON_KEY: ANON, SUPABASE_SERVICE_ROLE_KEY: KEY, MAIL_API_URL: `${url}/_mail` });
}, 90_000);

afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => recorder?.close(resolve));
});

/** Every readable command line of the machine. */
function commandLines(): { pid: string; line: string }[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        return [{ pid, line: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ') }];
      } catch {
        return []; // gone meanwhile
      }
    });
}

it('no command line on the machine holds the service role key or the other vars', () => {
  const lines = commandLines();
  // The app server's own processes are among them (npx, wrangler, workerd).
  expect(lines.some(({ pid }) => pid === String(app.pid))).toBe(true);
  expect(lines.filter(({ line }) => line.includes('wrangler') && line.includes('--env-file')).length).toBeGreaterThan(0);
  expect(lines.filter(({ line }) => line.includes(KEY) || line.includes(ANON))).toEqual([]);
});

it('the Worker has the key all the same: its jobs runner calls the backend with it', async () => {
  const response = await fetch(`${app.url}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`);
  expect(response.ok).toBe(true);
  await response.arrayBuffer();
  expect(keysSeen).toContain(KEY);
});
