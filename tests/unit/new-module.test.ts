// `npm run new:module -- example-gen` (scripts/new-module.ts), run in a
// temporary copy of the repository (its files as they are, node_modules
// linked), so the tree under test is never touched and the copy is removed
// even when a case fails. The generator runs `db:schema` there, which applies
// the generated migration and checks the schema file against it; the
// generated TypeScript is parsed; its test skeletons must fail, none skipped.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NAME = 'example-gen';

let copy: string;
let firstRun: ReturnType<typeof spawnSync>;

/** npm, so the scripts run with the project's own node (node_modules/.bin), as `npm run new:module` does. */
const newModule = (...args: string[]) => spawnSync('npm', ['run', '-s', 'new:module', '--', ...args], { cwd: copy, encoding: 'utf8' });
const inCopy = (file: string) => readFileSync(join(copy, file), 'utf8');

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'new-module-'));
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue; // deleted but not yet committed
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  firstRun = newModule(NAME);
}, 120_000);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('npm run new:module', () => {
  it('writes the module, applies its migration and writes its schema file', () => {
    expect(firstRun.status, `${firstRun.stdout}\n${firstRun.stderr}`).toBe(0);
    expect(String(firstRun.stdout)).toContain("a database built from the schema files has the migrations' catalogue");
    for (const file of ['example-gen.tsx', 'example-gen-detail.tsx', 'queries.server.ts', 'schema.ts', 'texts.ts']) {
      expect(existsSync(join(copy, 'app/features/example-gen', file)), file).toBe(true);
    }
    const [migration] = readdirSync(join(copy, 'supabase/migrations')).filter((file) => file.endsWith('_example_gen.sql'));
    const sql = inCopy(`supabase/migrations/${migration}`);
    for (const needed of [
      'account_id uuid not null default public.current_account_id()',
      'enable row level security',
      'public.is_account_staff()',
      'public.can_write_business()',
      'grant insert (account_id, name, status, notes)',
      'create trigger example_gen_audit',
      "insert into private.record_types",
      'create function public.search_example_gen(p_query text)',
      'set enable_seqscan = off',
      'using gin (account_id, name extensions.gin_trgm_ops)',
      '(account_id, created_at desc, id desc)',
    ]) {
      expect(sql, needed).toContain(needed);
    }
    expect(inCopy('supabase/schemas/example-gen.sql')).toContain('create table public.example_gen');
    expect(inCopy('app/lib/database.types.ts')).toContain('example_gen: {');
  });

  it('adds one entry to each shared table', () => {
    const entries: [string, string][] = [
      ['app/routes.ts', "route('example-gen/:id', 'features/example-gen/example-gen-detail.tsx')"],
      ['app/lib/navigation.ts', "{ to: '/example-gen', label: 'Example gen'"],
      ['scripts/db-schema/features.ts', "tables: ['public.example_gen']"],
      ['supabase/config.toml', '"./schemas/example-gen.sql"'],
      ['supabase/seed.sql', 'insert into public.example_gen'],
      ['tests/db/role-matrix.test.ts', 'example_gen: {'],
      ['tests/db/tenant-isolation.test.ts', "{ table: 'example_gen'"],
      ['tests/worker/hostile-actions.ts', "route: 'features/example-gen/example-gen.tsx'"],
    ];
    for (const [file, entry] of entries) expect(inCopy(file), file).toContain(entry);
  });

  it('writes TypeScript that parses', () => {
    const folder = join(copy, 'app/features/example-gen');
    for (const file of readdirSync(folder)) {
      const { diagnostics } = ts.transpileModule(readFileSync(join(folder, file), 'utf8'), {
        fileName: file,
        reportDiagnostics: true,
        compilerOptions: { jsx: ts.JsxEmit.ReactJSX, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      expect((diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), file).toEqual([]);
    }
  });

  it('writes test skeletons that fail until filled in, none skipped', () => {
    const report = join(copy, 'skeletons.json');
    writeFileSync(join(copy, 'vitest.skeletons.config.ts'), "export default { test: { include: ['tests/*/example-gen.test.ts'] } };\n");
    const run = spawnSync('npx', ['vitest', 'run', '-c', 'vitest.skeletons.config.ts', '--reporter=json', `--outputFile=${report}`], { cwd: copy, encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    const result = JSON.parse(readFileSync(report, 'utf8')) as { numTotalTestSuites: number; numTotalTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
    expect(result.numTotalTests).toBeGreaterThanOrEqual(9);
    expect(result.numFailedTests).toBe(result.numTotalTests);
    expect(result.numPendingTests + result.numTodoTests).toBe(0);
    expect(inCopy('tests/worker/example-gen.test.ts')).toContain("throw new Error('fill in: ");
  }, 60_000);

  it('refuses a name that exists, leaving everything as it was', () => {
    const before = inCopy('app/routes.ts');
    const again = newModule(NAME);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("'example-gen' exists already");
    expect(inCopy('app/routes.ts')).toBe(before);
    // The route exists though the folder does not: still refused.
    const clash = newModule('bills');
    expect(clash.status).toBe(1);
    expect(clash.stderr).toContain('the route /bills');
  });

  it('refuses a name that is not lowercase letters, digits and hyphens', () => {
    for (const name of ['Example', 'example_gen', '1example', 'example--gen', 'example-', '../etc', 'a'.repeat(29)]) {
      const refused = newModule(name);
      expect(refused.status, name).toBe(1);
      expect(existsSync(join(copy, 'app/features', name)), name).toBe(false);
    }
    expect(newModule().status).toBe(1);
    // Eight runs of the script, each a Node start: seconds on a loaded machine.
  }, 60_000);
});
