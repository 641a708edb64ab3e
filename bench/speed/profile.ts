// `npm run bench:speed:profile -- /dashboard [/quotes ...]`: where the Worker's
// CPU goes on a page, measured rather than guessed (issue 22). Starts the same
// stack as bench:speed with `wrangler dev --inspector-port`, drives the page
// with autocannon as the demo admin, and records a V8 CPU profile of the
// Worker's isolate through the DevTools protocol. Prints the self time by
// function and by source file; writes the raw profile to
// bench/speed/profiles/<page>.cpuprofile (open it in Chrome DevTools).
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session as InspectorSession } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { load } from './load.ts';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { freePort, startAppServer } from '../../tests/e2e/support/app-server.ts';
import { Session } from '../../tests/support/session.ts';
import { DEMO_ADMIN } from '../../tests/support/accounts.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const TOP = Number(process.env.PROFILE_TOP ?? 30);
const OUT = fileURLToPath(new URL('./profiles/', import.meta.url));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A DevTools protocol session over the inspector's WebSocket. */
async function devtools(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { id: string; title?: string; webSocketDebuggerUrl: string }[];
  // wrangler's inspector proxy lists the user Worker (the asset and router Workers are not exposed).
  const target = targets[0];
  if (!target) throw new Error('no inspector target');
  // The inspector proxy accepts local origins only (Node's WebSocket sends none).
  const socket = new WebSocket(target.webSocketDebuggerUrl, { headers: { origin: 'http://localhost' } } as unknown as string[]);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let next = 1;
  const waiting = new Map<number, (value: unknown) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown };
    if (message.id && waiting.has(message.id)) {
      waiting.get(message.id)!(message.error ? Promise.reject(new Error(JSON.stringify(message.error))) : message.result);
      waiting.delete(message.id);
    }
  });
  return {
    send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      const id = next++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise<T>((resolve) => waiting.set(id, resolve as (value: unknown) => void));
    },
    close: () => socket.close(),
  };
}

function shortUrl(url: string): string {
  const at = url.lastIndexOf('/');
  return url ? url.slice(at + 1) : '(native)';
}

function summarise(profile: Profile, requests: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fnTimes = new Map<string, number>();
  const fileTimes = new Map<string, number>();
  for (const [id, micros] of self) {
    const { callFrame } = byId.get(id)!;
    const fn = `${callFrame.functionName || '(anonymous)'} ${shortUrl(callFrame.url)}:${callFrame.lineNumber + 1}`;
    fnTimes.set(fn, (fnTimes.get(fn) ?? 0) + micros);
    const file = shortUrl(callFrame.url) || callFrame.functionName;
    fileTimes.set(file, (fileTimes.get(file) ?? 0) + micros);
  }
  const perRequest = (micros: number) => (micros / 1000 / requests).toFixed(3);
  const idle = fnTimes.get('(idle) (native):0') ?? 0;
  console.log(`profiled ${(total / 1e6).toFixed(1)} s, ${requests} requests; busy ${perRequest(total - idle)} ms per request`);
  console.log('\nself ms per request by file:');
  for (const [file, micros] of [...fileTimes].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${perRequest(micros).padStart(7)}  ${file}`);
  console.log('\nself ms per request by function:');
  for (const [fn, micros] of [...fnTimes].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${perRequest(micros).padStart(7)}  ${fn}`);

  // Inclusive time of named functions: where a whole phase goes.
  const inclusive = new Map<string, number>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  for (const [id, micros] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { callFrame } = byId.get(at)!;
      const fn = `${callFrame.functionName || '(anonymous)'} ${shortUrl(callFrame.url)}:${callFrame.lineNumber + 1}`;
      if (seen.has(fn)) continue;
      seen.add(fn);
      inclusive.set(fn, (inclusive.get(fn) ?? 0) + micros);
    }
  }
  console.log('\ninclusive ms per request by function:');
  for (const [fn, micros] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, TOP * 2)) console.log(`  ${perRequest(micros).padStart(7)}  ${fn}`);
}

const paths = process.argv.slice(2);
if (paths.length === 0) paths.push('/dashboard');
const port = await freePort();
const inspectorPort = await freePort();
const backend = await startTestBackend({ seed: true, siteUrl: `http://127.0.0.1:${port}` });
const app = await startAppServer({ SUPABASE_URL: backend.url, SUPABASE_ANON_KEY: backend.anonKey }, port, ['--inspector-port', String(inspectorPort)]);
try {
  const admin = new Session(app.url, backend.url);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const session = await devtools(inspectorPort);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 100 });
  // The local backend runs in this process: profiled alongside.
  const local = new InspectorSession();
  local.connect();
  await local.post('Profiler.enable');
  await local.post('Profiler.setSamplingInterval', { interval: 100 });
  mkdirSync(OUT, { recursive: true });
  for (const path of paths) {
    const headers: Record<string, string> = path === '/' || path.startsWith('/assets/') || path === '/no-such-page' ? {} : { cookie: admin.cookieHeader };
    await load(app.url + path, headers, { connections: CONNECTIONS, seconds: SECONDS }); // warm-up
    await session.send('Profiler.start');
    await local.post('Profiler.start');
    const result = await load(app.url + path, headers, { connections: CONNECTIONS, seconds: SECONDS });
    const { profile } = await session.send<{ profile: Profile }>('Profiler.stop');
    const { profile: backendProfile } = (await local.post('Profiler.stop')) as unknown as { profile: Profile };
    const name = path.replace(/[^a-z0-9]+/gi, '_') || 'root';
    writeFileSync(`${OUT}${name}.cpuprofile`, JSON.stringify(profile));
    console.log(`\n## ${path}: ${result.requests.average.toFixed(0)} req/s, non-2xx ${result.non2xx}`);
    summarise(profile, result.requests.total);
    writeFileSync(`${OUT}${name}.backend.cpuprofile`, JSON.stringify(backendProfile));
    console.log(`\n### ${path}: the local backend (this process)`);
    summarise(backendProfile, result.requests.total);
  }
  session.close();
} finally {
  await app.stop();
  await backend.stop();
}
process.exit(0);
