// The README's first command, run as a newcomer runs it: `npm start` in a clean
// copy of the repository (no .data/, build/ or .wrangler/), on free ports.
// It must print the URL and the demo sign-in, serve the dashboard to that
// sign-in by a plain form post, keep what was made across a restart, begin
// again with --fresh, stop on Ctrl-C leaving no process and no port behind,
// and say set-up problems in a sentence instead of a stack trace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../e2e/support/app-server.ts';
import { Session } from '../support/session.ts';
import { cleanCopy, descendants, isAlive, type Started, startNpm } from './support/npm-start.ts';
import { DEMO_DOCUMENTS } from '../../scripts/demo-documents.mjs';
import { DEFAULT_JWT_SECRET, makeApiKeys } from '../../supabase/local/keys.ts';

const BUILD_AND_START = 300_000;

let copy: string;
let appPort: number;
let backendPort: number;
let smtpPort: number;

beforeAll(async () => {
  copy = cleanCopy();
  appPort = await freePort();
  backendPort = await freePort();
  smtpPort = await freePort();
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

const portEnv = () => ({ APP_PORT: String(appPort), BACKEND_PORT: String(backendPort), SMTP_PORT: String(smtpPort) });

function expectSentence(run: Started, sentence: string | RegExp) {
  expect(run.code).toBe(1);
  expect(run.output).toMatch(sentence);
  // A sentence, not a stack trace.
  expect(run.output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
}

async function holdPort(port: number): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

async function expectPortFree(port: number) {
  const server = await holdPort(port); // throws EADDRINUSE if anything still listens
  await new Promise((resolve) => server.close(resolve));
}

describe('set-up problems are said in a sentence', () => {
  it('a taken app port names APP_PORT', async () => {
    const holder = await holdPort(appPort);
    try {
      const run = await startNpm(copy, ['start'], portEnv()).exited;
      expectSentence(run, `Port ${appPort} is in use: set APP_PORT to another port`);
    } finally {
      holder.close();
    }
  });

  it('a taken backend port names BACKEND_PORT', async () => {
    const holder = await holdPort(backendPort);
    try {
      const run = await startNpm(copy, ['start'], portEnv()).exited;
      expectSentence(run, `Port ${backendPort} is in use: set BACKEND_PORT to another port`);
    } finally {
      holder.close();
    }
  });

  it('a data folder that cannot be written says so', async () => {
    // A file where the folder should be: not writable whoever runs the test (root included).
    writeFileSync(join(copy, '.data'), 'not a folder');
    try {
      const run = await startNpm(copy, ['start'], portEnv()).exited;
      expectSentence(run, /The data folder \.data\/pglite is not writable \(E[A-Z]+\)/);
    } finally {
      rmSync(join(copy, '.data'), { force: true });
    }
  });

  it('a data folder made by an incompatible version says how to start fresh', async () => {
    mkdirSync(join(copy, '.data/pglite'), { recursive: true });
    writeFileSync(join(copy, '.data/pglite/ops-hub-format.json'), '{"pglite":"0.1.0"}');
    try {
      const run = await startNpm(copy, ['start'], portEnv()).exited;
      expectSentence(run, /was made by an incompatible version \(PGlite 0\.1\.0;[^)]*\)\. Start again from fresh demo data with: npm start -- --fresh/);
    } finally {
      rmSync(join(copy, '.data'), { recursive: true, force: true });
    }
  });
});

describe('npm start on a fresh clone', () => {
  const leadName = `First Run ${Date.now()}`;
  // The search box echoes the name; the e-mail shows only in a found row.
  const leadEmail = `first.run.${Date.now()}@example.com`;

  async function signInAsPrinted(run: { output: string }): Promise<Session> {
    const app = /App:\s+(http:\/\/\S+)/.exec(run.output)?.[1];
    const signIn = /Sign in:\s+(\S+) \/ (\S+)/.exec(run.output);
    expect(app).toBe(`http://127.0.0.1:${appPort}`);
    expect(signIn).not.toBeNull();
    const session = new Session(app!);
    await session.signIn(signIn![1], signIn![2]);
    return session;
  }

  const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

  /**
   * The demo data's invoices (seed.sql) and documents (uploaded by the first
   * start), once each: every document downloads the very bytes of its file.
   */
  async function expectDemoBooks(session: Session) {
    const invoices = await session.send('/invoices');
    expect(invoices.status).toBe(200);
    expect(invoices.body.replaceAll('<!-- -->', '')).toContain('Showing 1–6 of 6 invoices');
    const documents = await session.send('/documents');
    expect(documents.status).toBe(200);
    for (const { title } of DEMO_DOCUMENTS) expect(documents.body).toContain(title);
    const ids = [...new Set([...documents.body.matchAll(/href="\/documents\/([0-9a-f-]{36})"/g)].map((match) => match[1]))];
    expect(ids).toHaveLength(DEMO_DOCUMENTS.length);
    const downloaded: string[] = [];
    for (const id of ids) {
      const download = await session.send(`/documents/${id}/download`);
      expect(download.status).toBe(302);
      const file = await fetch(new URL(download.location!, session.origin));
      expect(file.status).toBe(200);
      downloaded.push(sha256(new Uint8Array(await file.arrayBuffer())));
    }
    const files = DEMO_DOCUMENTS.map(({ file }) => sha256(readFileSync(join(copy, 'supabase/demo-documents', file))));
    expect(downloaded.sort()).toEqual(files.sort());
  }

  /** Ctrl-C as a terminal sends it (to the whole foreground group); nothing may be left. */
  async function stopWithCtrlC(run: ReturnType<typeof startNpm>) {
    const tree = descendants(run.pid);
    expect(tree.length).toBeGreaterThan(3); // npm, the script, wrangler, workerd
    run.interrupt();
    const { code, signal, output } = await run.exited;
    expect({ code, signal }).toEqual(code === null ? { code: null, signal: 'SIGINT' } : { code: 0, signal: null });
    expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(tree.filter(isAlive)).toEqual([]);
    await expectPortFree(appPort);
    await expectPortFree(backendPort);
  }

  it('builds, prints the URL and demo sign-in, serves the dashboard, creates a lead, stops on Ctrl-C', { timeout: BUILD_AND_START }, async () => {
    const run = startNpm(copy, ['start'], portEnv());
    await run.ready;
    const session = await signInAsPrinted(run);
    const dashboard = await session.send('/dashboard');
    expect(dashboard.status).toBe(200);
    await expectDemoBooks(session);
    expect(dashboard.body).toContain('<h1');
    expect(dashboard.body).toMatch(/Dashboard/);

    const created = await session.send('/leads', { name: leadName, email: leadEmail, company: 'First Run Ltd', source: 'website' });
    expect(created.status).toBe(302);
    expect((await session.send(`/leads?q=${encodeURIComponent(leadName)}`)).body).toContain(leadEmail);

    await stopWithCtrlC(run);
  });

  it('starts again on the same folder without rebuilding, and the lead is still there', { timeout: BUILD_AND_START }, async () => {
    const run = startNpm(copy, ['start'], portEnv());
    await run.ready;
    expect(run.output).toContain('build/ is up to date with the sources: not rebuilding');
    const session = await signInAsPrinted(run);
    expect((await session.send(`/leads?q=${encodeURIComponent(leadName)}`)).body).toContain(leadEmail);
    // Not uploaded twice: the documents go in on the first start of fresh data only.
    await expectDemoBooks(session);
    // The migrations' revokes outlive the restart (decision 038): the anon key cannot take the jobs queue.
    const { anonKey } = await makeApiKeys(DEFAULT_JWT_SECRET);
    const claim = await fetch(`http://127.0.0.1:${backendPort}/rest/v1/rpc/claim_jobs`, {
      method: 'POST',
      headers: { apikey: anonKey, authorization: `Bearer ${anonKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ p_runner: 'first-run', p_limit: 1 }),
    });
    expect(((await claim.json()) as { code?: string }).code).toBe('42501');
    await stopWithCtrlC(run);
  });

  it('npm start -- --fresh begins again from fresh demo data', { timeout: BUILD_AND_START }, async () => {
    const run = startNpm(copy, ['start', '--', '--fresh'], portEnv());
    await run.ready;
    const session = await signInAsPrinted(run);
    const leads = await session.send(`/leads?q=${encodeURIComponent(leadName)}`);
    expect(leads.status).toBe(200);
    expect(leads.body).not.toContain(leadEmail);
    // The demo data is back: a demo lead of seed.sql is listed.
    expect((await session.send('/leads')).body).toContain('sarah@techcorp.test');
    // The files went with the old data, and the fresh demo data's came back.
    await expectDemoBooks(session);
    await stopWithCtrlC(run);
  });
});
