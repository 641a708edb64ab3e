// A test run that stops moving fails, loudly, instead of waiting forever.
// Test and hook timeouts are kept by the runner inside each test worker; when
// the worker itself stops answering (a workerd runtime of the Worker layer
// whose runner went quiet, as happened in CI), nothing is left to time out and
// the run sits silent until the CI job's own limit. This reporter lives in the
// main process: every test, hook or file starting or ending, and every line a
// test prints, is progress; after STALL_LIMIT_MS without any, it names the
// files still running and what each did last, cancels the run and exits 1.
// The limit is twice the longest timeout any test sets (npm start's first
// build, 300 s), so it never cuts a test that is merely slow.
import { relative } from 'node:path';
import type { Reporter, ReportedHookContext, TestCase, TestModule, Vitest } from 'vitest/node';

export const STALL_LIMIT_MS = Number(process.env.TEST_STALL_LIMIT_MS) || 600_000;
/** How long a stalled run gets to cancel and close (global teardown included) before the process ends anyway. */
const CLOSE_GRACE_MS = 30_000;

const moduleOf = (hook: ReportedHookContext): TestModule => (hook.entity.type === 'module' ? hook.entity : hook.entity.module);

const clock = () => new Date().toISOString().slice(11, 19);

export default class StallWatchdog implements Reporter {
  private vitest: Vitest | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Files started and not finished, with what each did last. */
  private readonly running = new Map<string, string>();
  private lastProgress = clock();

  private readonly limitMs: number;

  /** Vitest constructs a reporter named by path with its options (`['path', { limitMs }]`), else with {}. */
  constructor(options: { limitMs?: number } = {}) {
    this.limitMs = options.limitMs ?? STALL_LIMIT_MS;
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    this.progress();
  }

  onTestModuleQueued(module: TestModule): void {
    this.running.set(this.name(module), `file queued at ${clock()}, not started`);
    this.progress();
  }

  onTestModuleStart(module: TestModule): void {
    this.running.set(this.name(module), `file started at ${clock()}`);
    this.progress();
  }

  onTestModuleEnd(module: TestModule): void {
    this.running.delete(this.name(module));
    this.progress();
  }

  onHookStart(hook: ReportedHookContext): void {
    this.note(moduleOf(hook), `${hook.name} started at ${clock()}`);
  }

  onHookEnd(hook: ReportedHookContext): void {
    this.note(moduleOf(hook), `${hook.name} ended at ${clock()}`);
  }

  onTestCaseReady(test: TestCase): void {
    this.note(test.module, `test '${test.fullName}' started at ${clock()}`);
  }

  onTestCaseResult(test: TestCase): void {
    this.note(test.module, `test '${test.fullName}' ${test.result().state} at ${clock()}`);
  }

  onUserConsoleLog(): void {
    this.progress();
  }

  onTestRunEnd(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private name(module: TestModule): string {
    return relative(process.cwd(), module.moduleId);
  }

  private note(module: TestModule, what: string): void {
    if (this.running.has(this.name(module))) this.running.set(this.name(module), what);
    this.progress();
  }

  private progress(): void {
    this.lastProgress = clock();
    clearTimeout(this.timer);
    // Unref'd: the watchdog alone never keeps a finished run alive.
    this.timer = setTimeout(() => void this.stalled(), this.limitMs).unref();
  }

  private async stalled(): Promise<void> {
    const files = [...this.running].map(([file, last]) => `  ${file}: ${last}`);
    console.error(
      [
        '',
        `STALLED: no test progress for ${Math.round(this.limitMs / 1000)} s (last at ${this.lastProgress} UTC); failing the run.`,
        files.length > 0
          ? 'Files not finished, and what each did last:'
          : 'No test file was running: the pool stopped between files (the next one never started) or while ending the run.',
        ...files,
        '',
      ].join('\n'),
    );
    process.exitCode = 1;
    const grace = new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
    try {
      await Promise.race([this.vitest?.cancelCurrentRun('test-failure'), grace]);
      await Promise.race([this.vitest?.close(), grace]);
    } finally {
      process.exit(1);
    }
  }
}
