// `npm test`: every test layer, in the order that fails fastest, then one
// closing line with the totals. Stops at the first failing stage.
//   node scripts/test.mjs [stage ...]   stages: unit backend db worker e2e first-run
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** @type {Record<string, string[]>} */
const STAGES = {
  unit: ['vitest', 'run', '--project', 'unit'],
  backend: ['vitest', 'run', '--project', 'backend'],
  db: ['vitest', 'run', '--project', 'db'],
  // The Worker layer runs the built Worker, so it builds first.
  worker: ['vitest', 'run', '-c', 'vitest.worker.config.ts'],
  e2e: ['vitest', 'run', '--project', 'e2e'],
  // The README's `npm start` from a clean copy of the repository (it builds its own).
  'first-run': ['vitest', 'run', '--project', 'first-run'],
};

const WATCHDOG = './tests/support/stall-watchdog.ts';

const requested = process.argv.slice(2);
const stages = requested.length > 0 ? requested : Object.keys(STAGES);
for (const stage of stages) {
  if (!STAGES[stage]) {
    console.error(`unknown stage '${stage}'; stages: ${Object.keys(STAGES).join(' ')}`);
    process.exit(2);
  }
}

const env = { ...process.env, CI: process.env.CI ?? 'true', WRANGLER_SEND_METRICS: 'false' };
const reportDir = mkdtempSync(join(tmpdir(), 'ops-hub-tests-'));
let passed = 0;
let failed = 0;
let skipped = 0;
let built = false;

/** @param {string} command @param {string[]} args */
function run(command, args) {
  return spawnSync(command, args, { stdio: 'inherit', env }).status ?? 1;
}

for (const stage of stages) {
  if ((stage === 'worker' || stage === 'e2e') && !built) {
    console.log('\n── build ──');
    if (run('npx', ['react-router', 'build']) !== 0) process.exit(1);
    built = true;
  }
  console.log(`\n── ${stage} ──`);
  const report = join(reportDir, `${stage}.json`);
  // The stall watchdog fails a run that stops moving, naming where (tests/support/stall-watchdog.ts).
  const reporters = ['--reporter=default', `--reporter=${WATCHDOG}`, '--reporter=json', `--outputFile.json=${report}`];
  const status = run('npx', [...STAGES[stage], ...reporters]);
  try {
    const results = JSON.parse(readFileSync(report, 'utf8'));
    passed += results.numPassedTests;
    failed += results.numFailedTests;
    skipped += results.numPendingTests + results.numTodoTests;
  } catch {
    failed += 1; // the stage crashed before reporting
  }
  if (status !== 0) {
    console.log(`\n${passed} passed, ${Math.max(failed, 1)} failed, ${skipped} skipped`);
    rmSync(reportDir, { recursive: true, force: true });
    process.exit(status);
  }
}

rmSync(reportDir, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
