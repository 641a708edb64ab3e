// `wrangler dev` for the built Worker, with its secrets out of the command
// line (issue 30): a process's arguments are readable by every user of the
// machine (`ps`, /proc/<pid>/cmdline), and `--var NAME:value` put the service
// role key there. The values go in a dotenv file that only this user can read
// (a fresh 0700 folder under the system's temporary folder, the file 0600),
// handed over with `--env-file` (wrangler 4 reads it as the Worker's secrets,
// over wrangler.json's [vars]), and removed when the server stops.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One `NAME=value` line. Single quotes keep the value literal to dotenv; `$`
 * is escaped for the variable expansion wrangler runs after it. A value that
 * cannot be written so (a newline, a quote, a backslash) is refused by name.
 * @param {string} name @param {string} value
 */
function envLine(name, value) {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`${name} is not a variable name wrangler can read`);
  if (/[\r\n'\\]/.test(value)) throw new Error(`${name} holds a newline, a quote or a backslash, which the Worker's env file cannot carry`);
  return `${name}='${value.replaceAll('$', '\\$')}'`;
}

/**
 * Writes `vars` to a private env file.
 * @param {Record<string, string>} vars
 * @returns {{ path: string, remove: () => void }}
 */
export function writeWorkerEnvFile(vars) {
  const lines = Object.entries(vars).map(([name, value]) => envLine(name, value));
  const dir = mkdtempSync(join(tmpdir(), 'opshub-worker-'));
  const path = join(dir, 'worker.env');
  writeFileSync(path, `${lines.join('\n')}\n`, { mode: 0o600 });
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The `npx` arguments that serve the built Worker on 127.0.0.1:`port` with
 * `vars` as its secrets, and the env file they name (remove it when done).
 * `--test-scheduled`: /cdn-cgi/handler/scheduled runs the Worker's cron handler (the jobs runner).
 * @param {{ config: string, port: number, vars: Record<string, string>, extraArgs?: string[] }} options
 */
export function wranglerDev({ config, port, vars, extraArgs = [] }) {
  const envFile = writeWorkerEnvFile(vars);
  const args = ['wrangler', 'dev', '-c', config, '--ip', '127.0.0.1', '--port', String(port), '--test-scheduled', '--env-file', envFile.path, ...extraArgs];
  return { args, envFile };
}
