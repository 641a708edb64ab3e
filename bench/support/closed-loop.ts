// A closed-loop load: `concurrency` clients, each sending its next request as
// soon as the last one is answered, for `seconds`, after a warm-up of 50.

export interface LoadResult {
  requests: number;
  perSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
}

export async function closedLoop(concurrency: number, seconds: number, once: () => Promise<void>): Promise<LoadResult> {
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
  return { requests: latencies.length, perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}
