// `npm test`: every test layer, then one closing line with the totals. Stops
// at the first failing stage.
//   node scripts/test.mjs [stage ...]   stages: unit backend db worker e2e first-run
//
// The layers run in two lanes side by side, each in the order that fails
// fastest: the Node layers then the Worker layer in one, the build, the
// browser layer and the newcomer's first run in the other. Vitest gives each
// run one test worker on a two-core machine (cores − 1), and most of each
// layer's time is spent in one process, so one after the other they left a
// core idle for most of CI's half hour. Each line a lane prints is prefixed
// with its stage's name; after a failing stage no further stage starts.
// TEST_SERIAL=1 runs the stages one after the other, unprefixed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** @type {Record<string, string[]>} */
const STAGES = {
  unit: ['vitest', 'run', '--project', 'unit'],
  backend: ['vitest', 'run', '--project', 'backend'],
  db: ['vitest', 'run', '--project', 'db'],
  // The Worker layer runs the built Worker, so the build comes first.
  worker: ['vitest', 'run', '-c', 'vitest.worker.config.ts'],
  e2e: ['vitest', 'run', '--project', 'e2e'],
  // The README's `npm start` from a clean copy of the repository (it builds its own).
  'first-run': ['vitest', 'run', '--project', 'first-run'],
};

/** The two lanes; a stage needs the build when it runs the built Worker. */
const LANES = [
  ['unit', 'backend', 'db', 'worker'],
  ['e2e', 'first-run'],
];
const NEEDS_BUILD = new Set(['worker', 'e2e']);

const WATCHDOG = './tests/support/stall-watchdog.ts';

const requested = process.argv.slice(2);
const stages = requested.length > 0 ? requested : Object.keys(STAGES);
for (const stage of stages) {
  if (!STAGES[stage]) {
    console.error(`unknown stage '${stage}'; stages: ${Object.keys(STAGES).join(' ')}`);
    process.exit(2);
  }
}

const serial = Boolean(process.env.TEST_SERIAL);
const env = { ...process.env, CI: process.env.CI ?? 'true', WRANGLER_SEND_METRICS: 'false' };
const reportDir = mkdtempSync(join(tmpdir(), 'ops-hub-tests-'));
let stopping = false;

/**
 * Runs a command, its output as it is (serial) or each line prefixed with `name`.
 * @param {string} name @param {string[]} args @returns {Promise<number>}
 */
function run(name, args) {
  return new Promise((resolve) => {
    const child = spawn('npx', args, { env, stdio: serial ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    if (!serial) {
      for (const stream of [child.stdout, child.stderr]) {
        if (stream) createInterface({ input: stream }).on('line', (line) => console.log(`[${name}] ${line}`));
      }
    }
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** The build, once, for whichever stage needs it first. @type {Promise<number> | null} */
let build = null;
const built = () => {
  if (!build) {
    console.log('\n── build ──');
    build = run('build', ['react-router', 'build']);
  }
  return build;
};

/**
 * A stage's run: its command with the reporters that write its counts and watch for a stall.
 * @param {string} stage @returns {Promise<number>}
 */
async function runStage(stage) {
  if (NEEDS_BUILD.has(stage) && (await built()) !== 0) return 1;
  if (stopping) return 1;
  console.log(`\n── ${stage} ──`);
  const report = join(reportDir, `${stage}.json`);
  // The stall watchdog fails a run that stops moving, naming where (tests/support/stall-watchdog.ts).
  const reporters = ['--reporter=default', `--reporter=${WATCHDOG}`, '--reporter=json', `--outputFile.json=${report}`];
  return run(stage, [...STAGES[stage], ...reporters]);
}

/** A lane's stages one after the other; after a failure in either lane no further stage starts. @param {string[]} lane */
async function runLane(lane) {
  for (const stage of lane) {
    const status = await runStage(stage);
    if (status !== 0) {
      // The other lane's running stage ends on its own (its teardown stops its servers); no further stage starts.
      if (!stopping) console.log(`\n── ${stage} failed: no further stage starts ──`);
      stopping = true;
      return status;
    }
  }
  return 0;
}

const lanes = serial ? [stages] : LANES.map((lane) => lane.filter((stage) => stages.includes(stage))).filter((lane) => lane.length > 0);
const status = (await Promise.all(lanes.map(runLane))).find((code) => code !== 0) ?? 0;

let passed = 0;
let failed = 0;
let skipped = 0;
for (const stage of stages) {
  try {
    const results = JSON.parse(readFileSync(join(reportDir, `${stage}.json`), 'utf8'));
    passed += results.numPassedTests;
    failed += results.numFailedTests;
    skipped += results.numPendingTests + results.numTodoTests;
  } catch {
    // A stage that crashed before reporting counts as a failure; one never started (after a failure) counts as nothing.
    if (!stopping) failed += 1;
  }
}
rmSync(reportDir, { recursive: true, force: true });
console.log(`\n${passed} passed, ${status !== 0 ? Math.max(failed, 1) : failed} failed, ${skipped} skipped`);
process.exit(status !== 0 ? status : failed > 0 ? 1 : 0);
