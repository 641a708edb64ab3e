// Keeps a load generator off the cores of the system it measures.
//
// On a small machine the HTTP client, the backend and Postgres share the same
// cores, so a REST benchmark would bill the client's work to the server, while
// the direct-SQL path it is compared with has no client at all. Like running
// the load generator on another machine, this gives the system under test (this
// process and, when it runs here, the PostgreSQL server) the first core and the
// load generator the rest, for both paths alike. Needs `taskset` (util-linux)
// and two cores; otherwise nothing is pinned and the results say so.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

export interface CpuSplit {
  /** How to start a load generator: the command and its leading arguments. */
  loadGenerator: (command: string, args: string[]) => [string, string[]];
  /** One line for the results: what ran where. */
  description: string;
  /** Gives every pinned process its old cores back. */
  restore(): void;
}

function affinity(pid: number): string | null {
  try {
    return execFileSync('taskset', ['-p', '-c', String(pid)], { encoding: 'utf8' }).trim().split(': ').pop() ?? null;
  } catch {
    return null;
  }
}

function pin(pid: number, cores: string): boolean {
  try {
    // -a: every thread (the JIT's and the GC's too).
    execFileSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `pids`: the processes of the system under test besides this one (e.g. the postmaster). */
export function splitCpus(pids: number[], enabled = process.env.BENCH_PIN !== '0'): CpuSplit {
  const cores = availableParallelism();
  const unpinned: CpuSplit = {
    loadGenerator: (command, args) => [command, args],
    description: `not pinned: load generator, backend and database share ${cores} core(s)`,
    restore() {},
  };
  const before = enabled && cores >= 2 ? affinity(process.pid) : null;
  if (before === null) return unpinned;
  const restored: [number, string][] = [];
  for (const pid of [process.pid, ...pids]) {
    const old = affinity(pid);
    if (old === null || !pin(pid, '0')) {
      for (const [p, mask] of restored) pin(p, mask);
      return unpinned;
    }
    restored.push([pid, old]);
  }
  const rest = cores === 2 ? '1' : `1-${cores - 1}`;
  return {
    loadGenerator: (command, args) => ['taskset', ['-c', rest, command, ...args]],
    description: `pinned: backend and database on core 0, load generator on core${cores === 2 ? '' : 's'} ${rest}`,
    restore() {
      for (const [pid, mask] of restored) pin(pid, mask);
    },
  };
}
