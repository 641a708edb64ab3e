// The load generator of bench/backend/rest.ts, in a process of its own (and,
// where it can be, on a core of its own) so that the HTTP client's work is not
// billed to the server it measures:
//   node bench/backend/rest-client.ts <url> <apikey> <concurrency> <seconds> <expectedRows>
// prints one JSON line: { requests, perSecond, p50, p99 }.
// node:http with keep-alive rather than fetch: it needs about half the CPU
// per request, so one core can drive the server flat out.
import http from 'node:http';
import { closedLoop } from '../support/closed-loop.ts';

const [url, key, concurrencyArg, secondsArg, expectedArg] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const expected = Number(expectedArg);
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const options = { host: target.hostname, port: target.port, path: target.pathname + target.search, agent, headers: { apikey: key, Authorization: `Bearer ${key}` } };

function once(): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(options, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const rows = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown[];
          if (response.statusCode !== 200 || rows.length !== expected) reject(new Error(`unexpected answer ${response.statusCode}`));
          else resolve();
        });
      })
      .on('error', reject);
  });
}

console.log(JSON.stringify(await closedLoop(concurrency, Number(secondsArg), once)));
agent.destroy();
