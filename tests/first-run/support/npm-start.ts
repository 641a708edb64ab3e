// Running an npm script of a copy of the repository as a person at a terminal
// does: its own process group, output collected, Ctrl-C sent to the group.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The repository as a fresh clone has it: the files git tracks (as they are in
 * the work tree, so uncommitted changes are tested too) and new files it does
 * not ignore, but no .data/, build/ or .wrangler/. node_modules is shared.
 */
export function cleanCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), 'ops-hub-first-run-'));
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    const from = join(REPO, file);
    if (!existsSync(from)) continue; // deleted in the work tree
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(from, join(copy, file));
  }
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

export interface Started {
  code: number | null;
  /** The signal that ended npm: on Ctrl-C npm ends itself by SIGINT, as a shell expects. */
  signal: NodeJS.Signals | null;
  output: string;
}

export interface NpmRun {
  pid: number;
  /** Everything printed so far, stdout and stderr together. */
  readonly output: string;
  /** Resolves once the demo sign-in is printed; rejects if the script ends first. */
  ready: Promise<void>;
  exited: Promise<Started>;
  /** Ctrl-C: SIGINT to the whole process group, as a terminal sends it. */
  interrupt(): void;
}

export function startNpm(cwd: string, args: string[], extraEnv: Record<string, string>): NpmRun {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env.DATABASE_URL;
  delete env.PGLITE_DATA_DIR;
  const child = spawn('npm', args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<Started>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, output })));
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Sign in:\s+\S+ \/ \S+/.test(output)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(({ code }) => reject(new Error(`npm ${args.join(' ')} exited (${code}) before it was ready:\n${output}`)));
  });
  ready.catch(() => {}); // a caller that only awaits `exited` must not see an unhandled rejection
  return {
    pid: child.pid!,
    get output() {
      return output;
    },
    ready,
    exited,
    interrupt: () => process.kill(-child.pid!, 'SIGINT'),
  };
}

/** Every process below `pid` (children, grandchildren...), read from /proc. */
export function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // ended while we looked
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of parentOf) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return [pid, ...found];
}

/** Running, that is: a zombie (ended, not yet reaped by its new parent) is not. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
