// The product on loopback for a benchmark: a fresh local backend with the demo
// data and the built Worker (BUILD_DIR, default build/) under `wrangler dev`.
import { startTestBackend } from '../../supabase/local/testing.ts';
import { freePort, startAppServer } from '../../tests/e2e/support/app-server.ts';

export interface Stack {
  appUrl: string;
  backendUrl: string;
  serviceRoleKey: string;
  /** Service-role REST read of the backend (bypasses RLS), for checking results. */
  rest<T>(pathAndQuery: string): Promise<T>;
  stop(): Promise<void>;
}

export async function startStack(options: { postgresUrl?: string } = {}): Promise<Stack> {
  const port = await freePort();
  const backend = await startTestBackend({ seed: true, siteUrl: `http://127.0.0.1:${port}`, postgresUrl: options.postgresUrl });
  const app = await startAppServer({ SUPABASE_URL: backend.url, SUPABASE_ANON_KEY: backend.anonKey }, port);
  const headers = { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` };
  return {
    appUrl: app.url,
    backendUrl: backend.url,
    serviceRoleKey: backend.serviceRoleKey,
    async rest<T>(pathAndQuery: string) {
      const response = await fetch(`${backend.url}/rest/v1/${pathAndQuery}`, { headers });
      if (!response.ok) throw new Error(`${pathAndQuery}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
    async stop() {
      await app.stop();
      await backend.stop();
    },
  };
}

/** Machine facts printed above every result table. */
export function runHeader(): string {
  return `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, node ${process.version}, ${
    (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? '?'
  } cores`;
}
