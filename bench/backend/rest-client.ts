// The load generator of bench/backend/rest.ts, in a process of its own so that
// the HTTP client's work is not billed to the server it measures:
//   node bench/backend/rest-client.ts <url> <apikey> <concurrency> <seconds> <expectedRows>
// prints one JSON line: { requests, perSecond, p50, p99 }.
import { closedLoop } from '../support/closed-loop.ts';

const [url, key, concurrencyArg, secondsArg, expectedArg] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const seconds = Number(secondsArg);
const expected = Number(expectedArg);
const headers = { apikey: key, Authorization: `Bearer ${key}` };

async function once(): Promise<void> {
  const response = await fetch(url, { headers });
  const rows = (await response.json()) as unknown[];
  if (response.status !== 200 || rows.length !== expected) throw new Error(`unexpected answer ${response.status}`);
}

console.log(JSON.stringify(await closedLoop(concurrency, seconds, once)));
