// `npm run bench:edge`: `/` served from the Worker's edge cache (X-Edge-Cache:
// HIT) versus rendered by React Router (`/?render`, a query string bypasses
// the cache by design), in one run, with autocannon against `wrangler dev`.
// Build first (`npm run build`).
import autocannon from 'autocannon';
import { runHeader, startStack } from '../support/stack.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

async function load(url: string) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  return {
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
}

const stack = await startStack();
try {
  const cached = `${stack.appUrl}/`;
  const rendered = `${stack.appUrl}/?render`;
  const first = await fetch(cached);
  const second = await fetch(cached);
  const bypass = await fetch(rendered);
  const states = [first, second, bypass].map((r) => r.headers.get('x-edge-cache'));
  if (states[1] !== 'HIT' || states[2] !== 'BYPASS') throw new Error(`unexpected cache states ${states.join(', ')}`);
  await load(cached); // warm-up of both paths, not reported
  await load(rendered);
  const hit = await load(cached);
  const render = await load(rendered);
  console.log(`\n${runHeader()}; ${CONNECTIONS} connections, ${SECONDS} s each\n`);
  console.log('| `/` | requests/s | p50 ms | p99 ms | non-2xx or errors |');
  console.log('|---|---|---|---|---|');
  console.log(`| from the edge cache (HIT) | ${hit.perSecond.toFixed(0)} | ${hit.p50} | ${hit.p99} | ${hit.non2xx} |`);
  console.log(`| rendered (BYPASS) | ${render.perSecond.toFixed(0)} | ${render.p50} | ${render.p99} | ${render.non2xx} |`);
  console.log(`| **ratio cached / rendered** | **${(hit.perSecond / render.perSecond).toFixed(1)}x** | | | |`);
} finally {
  await stack.stop();
}
process.exit(0);
