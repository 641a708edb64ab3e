// What the speed benches share: autocannon in a process of its own, and the CPU
// a set of processes has used, read from /proc.
import type { Result } from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const AUTOCANNON = fileURLToPath(new URL('../../node_modules/autocannon/autocannon.js', import.meta.url));

export interface LoadOptions {
  connections: number;
  seconds: number;
}

/**
 * autocannon in a process of its own, as `npx autocannon` against `npm start`
 * would be: the local backend runs in the bench's process, and a load generator
 * on the same event loop would be held up by every query it runs.
 */
export async function load(url: string, headers: Record<string, string>, { connections, seconds }: LoadOptions): Promise<Result> {
  const args = [AUTOCANNON, '--json', '-c', String(connections), '-d', String(seconds)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}:${value}`);
  args.push(url);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${String(code)}`);
  return JSON.parse(output) as Result;
}

/** Milliseconds of CPU (user + system) the processes used so far. */
export function cpuOf(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone (npx's shell, say)
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

/** Every process below `root` (children, their children, …), from one `ps` listing. */
export function descendantsOf(root: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=']).toString().trim().split('\n').map((line) => line.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [pid, ppid] of rows) {
      if (ppid !== parent) continue;
      found.push(pid);
      walk(pid);
    }
  };
  walk(root);
  return found;
}
