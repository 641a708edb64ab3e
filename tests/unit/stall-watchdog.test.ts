// The stall watchdog (tests/support/stall-watchdog.ts) on real Vitest runs in
// a scratch folder: a run whose test stops moving, with nothing left to time
// it out in time, ends with exit code 1 and names the file and the test; a run
// that moves ends normally, not held open by the watchdog.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const VITEST = resolve('node_modules/vitest/vitest.mjs');
const WATCHDOG = resolve('tests/support/stall-watchdog.ts');
const scratch = mkdtempSync(join(tmpdir(), 'stall-watchdog-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function runVitest(name: string, body: string, limitMs: number) {
  writeFileSync(join(scratch, 'vitest.config.mjs'), 'export default { test: { include: ["*.test.mjs"] } };\n');
  writeFileSync(join(scratch, `${name}.test.mjs`), `import { it } from 'vitest';\n${body}\n`);
  return spawnSync(process.execPath, [VITEST, 'run', '--root', scratch, `${name}.test.mjs`, `--reporter=${WATCHDOG}`, '--reporter=default'], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', TEST_STALL_LIMIT_MS: String(limitMs), NODE_PATH: resolve('node_modules') },
    // The outer bound of this test; the watchdog's limit above is what ends a stalled run.
    timeout: 90_000,
  });
}

describe('the stall watchdog', () => {
  it('fails a run that stops moving, naming the file and the test it stopped in', { timeout: 120_000 }, () => {
    // A test that waits longer than the watchdog's limit and under its own timeout: a stand-in for a runner gone quiet.
    const run = runVitest('quiet', `it('waits on an answer that never comes', { timeout: 60_000 }, () => new Promise((resolve) => setTimeout(resolve, 45_000)));`, 10_000);
    expect(run.signal, run.stderr).toBeNull();
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toMatch(/STALLED: no test progress for 10 s/);
    // Vitest reports a test's start in batches: on a busy machine the watchdog may
    // only have heard of the file by then, which still names where the run stopped.
    expect(run.stderr).toMatch(/quiet\.test\.mjs: (test 'waits on an answer that never comes'|file) started at/);
  });

  it('lets a run that moves end as it would without it', { timeout: 120_000 }, () => {
    const run = runVitest('moving', `it('passes', () => {});`, 30_000);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).not.toContain('STALLED');
  });
});
