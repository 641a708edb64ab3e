// Serves the built Worker with `wrangler dev` (workerd), as `npm start` does,
// on a free loopback port.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { wranglerDev } from '../../../scripts/wrangler-dev.mjs';

export interface AppServer {
  url: string;
  /** The process group's leader (npx), whose group holds wrangler and workerd. */
  pid: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** `extraArgs`: more `wrangler dev` flags. `--test-scheduled` is always on: tests and benches drive the jobs runner. */
export async function startAppServer(vars: Record<string, string> = {}, port?: number, extraArgs: string[] = []): Promise<AppServer> {
  port ??= await freePort();
  const buildDir = process.env.BUILD_DIR ?? 'build';
  // The vars go in a private env file, not on the command line (scripts/wrangler-dev.mjs).
  const { args, envFile } = wranglerDev({ config: `${buildDir}/server/wrangler.json`, port, vars, extraArgs });
  const child: ChildProcess = spawn('npx', args, {
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  child.once('exit', () => envFile.remove());

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${output}`);
    try {
      const response = await fetch(`${url}/robots.txt`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (Date.now() >= deadline) throw new Error(`wrangler dev did not start:\n${output}`);

  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null || !child.pid) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // The whole process group: npx, wrangler and workerd.
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    },
  };
}
