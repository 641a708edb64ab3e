// `wrangler dev` as npm start and the tests run it (scripts/wrangler-dev.mjs):
// the Worker's vars go in a file only this user reads, never on the command
// line (issue 30: the service role key was in `ps`). The e2e layer checks the
// real processes (tests/e2e/worker-secrets.test.ts); this checks the file.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wranglerDev, writeWorkerEnvFile } from '../../scripts/wrangler-dev.mjs';

describe('wranglerDev', () => {
  it('puts no value on the command line, and each in a file of mode 0600 in a folder of mode 0700', () => {
    const vars = { SUPABASE_SERVICE_ROLE_KEY: 'eyJ.service.key', SUPABASE_URL: 'http://127.0.0.1:54321', SIMULATED_DELAY_MS: '' };
    const { args, envFile } = wranglerDev({ config: 'build/server/wrangler.json', port: 8787, vars, extraArgs: ['--log-level', 'warn'] });
    try {
      expect(args).not.toContain('--var');
      for (const value of Object.values(vars).filter(Boolean)) expect(args.join(' ')).not.toContain(value);
      expect(args).toEqual([
        'wrangler', 'dev', '-c', 'build/server/wrangler.json', '--ip', '127.0.0.1', '--port', '8787', '--test-scheduled', '--env-file', envFile.path, '--log-level', 'warn',
      ]);
      expect(statSync(envFile.path).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(envFile.path)).mode & 0o777).toBe(0o700);
      expect(readFileSync(envFile.path, 'utf8')).toBe(
        "SUPABASE_SERVICE_ROLE_KEY='eyJ.service.key'\nSUPABASE_URL='http://127.0.0.1:54321'\nSIMULATED_DELAY_MS=''\n",
      );
    } finally {
      envFile.remove();
    }
    expect(existsSync(dirname(envFile.path))).toBe(false);
  });

  it("escapes $ for wrangler's variable expansion, and refuses what the file cannot carry", () => {
    const file = writeWorkerEnvFile({ SECRET: 'a$b${c}' });
    try {
      expect(readFileSync(file.path, 'utf8')).toBe("SECRET='a\\$b\\${c}'\n");
    } finally {
      file.remove();
    }
    expect(() => writeWorkerEnvFile({ SECRET: 'two\nlines' })).toThrow('SECRET holds a newline, a quote or a backslash');
    expect(() => writeWorkerEnvFile({ SECRET: "it's" })).toThrow(/SECRET/);
    expect(() => writeWorkerEnvFile({ 'NOT A NAME': 'x' })).toThrow(/not a variable name/);
  });

  it('is how npm start, npm run dev and the tests start the Worker: none passes --var', () => {
    for (const file of ['scripts/local-stack.mjs', 'tests/e2e/support/app-server.ts']) {
      const source = readFileSync(file, 'utf8');
      expect(source, file).not.toMatch(/['"]--var['"]/);
      expect(source, file).toContain('wranglerDev(');
    }
  });
});
