// The load generator of bench/backend/rest.ts, in a process of its own so that
// the HTTP client's work is not billed to the server it measures:
//   node bench/backend/rest-client.ts <url> <apikey> <concurrency> <seconds> <expectedRows>
// prints one JSON line: { requests, perSecond, p50, p99 }.
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

for (let i = 0; i < 50; i++) await once(); // warm-up
const latencies: number[] = [];
const started = performance.now();
const end = started + seconds * 1000;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      const t = performance.now();
      await once();
      latencies.push(performance.now() - t);
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
console.log(JSON.stringify({ requests: latencies.length, perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) }));
