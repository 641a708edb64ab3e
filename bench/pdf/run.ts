// `npm run bench:pdf`: how long the quote PDF takes to render inside workerd,
// for 1, 20 and 100 line items (and 100 with the signature certificate).
// bench/pdf/worker.ts runs the product's renderer under `wrangler dev`; this
// script asks it for one PDF at a time and times each round trip; the Worker
// also reports the render alone (X-Render-Ms: workerd's clock, which locally
// advances during execution at millisecond resolution, unlike production's).
// An empty answer (/noop) gives the round trip's own cost. Runs per case:
// BENCH_RUNS (default 200), after 20 warm-up ones.
import { spawn } from 'node:child_process';
import { freePort } from '../../tests/e2e/support/app-server.ts';
import { runHeader } from '../support/stack.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARM_UP = 20;

async function startWorker(): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const child = spawn('npx', ['wrangler', 'dev', '-c', 'bench/pdf/wrangler.toml', '--ip', '127.0.0.1', '--port', String(port)], {
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const stop = () => {
    // The whole process group: npx, wrangler and workerd.
    if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/noop`)).status === 204) return { url, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stop();
  throw new Error(`wrangler dev did not start:\n${output}`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

interface Case {
  name: string;
  path: string;
}

async function time(url: string, path: string, runs: number) {
  const times: number[] = [];
  const renders: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const response = await fetch(`${url}${path}`);
    const body = await response.arrayBuffer();
    times.push(performance.now() - started);
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    bytes = body.byteLength;
    const render = response.headers.get('x-render-ms');
    if (render !== null) renders.push(Number(render));
  }
  times.sort((a, b) => a - b);
  renders.sort((a, b) => a - b);
  const inWorker = renders.length === 0 ? null : { p50: percentile(renders, 50), p99: percentile(renders, 99) };
  return { p50: percentile(times, 50), p99: percentile(times, 99), inWorker, bytes };
}

const cases: Case[] = [
  { name: 'empty answer (/noop, the round trip alone)', path: '/noop' },
  { name: 'quote, 1 line', path: '/render?lines=1' },
  { name: 'quote, 20 lines', path: '/render?lines=20' },
  { name: 'quote, 100 lines', path: '/render?lines=100' },
  { name: 'quote, 100 lines + signature certificate', path: '/render?lines=100&signed' },
];

const worker = await startWorker();
try {
  const rows: string[] = [];
  for (const { name, path } of cases) {
    await time(worker.url, path, WARM_UP);
    const { p50, p99, inWorker, bytes } = await time(worker.url, path, RUNS);
    const render = inWorker ? `${inWorker.p50.toFixed(0)} | ${inWorker.p99.toFixed(0)}` : ' | ';
    rows.push(`| ${name} | ${RUNS} | ${p50.toFixed(1)} | ${p99.toFixed(1)} | ${render} | ${bytes === 0 ? '' : (bytes / 1024).toFixed(1)} |`);
  }
  console.log(`\n${runHeader()}; workerd under wrangler dev, one request at a time\n`);
  console.log('| case | runs | round trip p50 ms | round trip p99 ms | render in the Worker p50 ms | p99 ms | PDF KB |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  worker.stop();
}
process.exit(0);
