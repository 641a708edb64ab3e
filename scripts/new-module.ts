// `npm run new:module -- <name>`: a new list module, as docs/adding-a-module.md
// lists it: the feature folder (list and record routes, queries, schema,
// texts), one migration (table, row-level security, grants, audit trigger,
// record type, search function and its indexes), the schema file's feature
// entry, seed rows, the entries of the self-guarding test tables (role matrix,
// tenant isolation, hostile input), the route and sidebar entries, and test
// skeletons that fail until they are filled in. Then it runs `db:schema` and
// `db:types`, so the module typechecks at once (`--no-generate` skips them).
//
// It refuses a name that is not lowercase letters, digits and hyphens, or that
// a folder, route, table or feature already has; it checks every place it
// edits before it writes anything, so a refusal leaves the tree as it was.
//   node scripts/new-module.ts <name> [--no-generate]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as t from './new-module/templates.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Edit {
  file: string;
  /** The line the entry goes before or after (its first occurrence). */
  anchor: string;
  where: 'before' | 'after';
  text: string;
}

function fail(message: string): never {
  console.error(`new:module: ${message}`);
  process.exit(1);
}

/** The migration's timestamp: one second after the latest, so it applies last whatever the clock says. */
function nextTimestamp(): string {
  const stamps = readdirSync(join(ROOT, 'supabase/migrations'))
    .map((file) => /^(\d{14})_/.exec(file)?.[1])
    .filter((stamp): stamp is string => Boolean(stamp))
    .sort();
  const latest = stamps.at(-1) ?? '20260101000000';
  const now = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  return now > latest ? now : String(BigInt(latest) + 1n);
}

function read(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

function applyEdit(source: string, edit: Edit): string {
  const at = source.indexOf(edit.anchor);
  if (at < 0) fail(`${edit.file}: cannot find where to add the entry (${JSON.stringify(edit.anchor)}); add it by hand`);
  const index = edit.where === 'before' ? at : at + edit.anchor.length;
  return source.slice(0, index) + edit.text + source.slice(index);
}

export function main(argv: string[]): void {
  const args = argv.filter((a) => !a.startsWith('--'));
  const generate = !argv.includes('--no-generate');
  if (args.length !== 1) fail('usage: npm run new:module -- <name>   (lowercase letters, digits and hyphens, e.g. field-visits)');
  const name = args[0];
  if (!t.NAME_PATTERN.test(name)) fail(`'${name}' is not a module name: lowercase letters, digits and single hyphens, starting with a letter`);
  if (name.length > t.MAX_NAME_LENGTH) fail(`'${name}' is too long: at most ${t.MAX_NAME_LENGTH} characters (the database's names must fit)`);
  const n = t.namesOf(name);

  // Refuse a name anything already has: the generator never overwrites.
  const feature = `app/features/${name}`;
  const taken = [
    existsSync(join(ROOT, feature)) && feature,
    existsSync(join(ROOT, `app/routes/${name}.tsx`)) && `app/routes/${name}.tsx`,
    read('app/routes.ts').includes(`route('${name}'`) && `the route /${name} in app/routes.ts`,
    read('scripts/db-schema/features.ts').includes(`name: '${name}'`) && `the feature '${name}' in scripts/db-schema/features.ts`,
    readdirSync(join(ROOT, 'supabase/migrations')).some((file) => read(`supabase/migrations/${file}`).includes(`create table public.${n.table} `)) &&
      `the table public.${n.table}`,
    ...['db', 'worker', 'e2e'].map((layer) => existsSync(join(ROOT, `tests/${layer}/${name}.test.ts`)) && `tests/${layer}/${name}.test.ts`),
  ].filter(Boolean);
  if (taken.length > 0) fail(`'${name}' exists already: ${taken.join(', ')}`);

  const edits: Edit[] = [
    { file: 'app/routes.ts', anchor: "      route('profile', ", where: 'before', text: t.routeEntries(n) },
    { file: 'app/lib/navigation.ts', anchor: "      { to: '/clients', label: 'Clients', icon: Users },\n", where: 'after', text: t.navigationItem(n) },
    { file: 'scripts/db-schema/features.ts', anchor: "  {\n    name: 'dashboard',", where: 'before', text: t.featureEntry(n) },
    { file: 'supabase/config.toml', anchor: '"./schemas/dashboard.sql"', where: 'before', text: `"./schemas/${name}.sql", ` },
    { file: 'supabase/seed.sql', anchor: '-- Leads of the Leads screen.', where: 'before', text: t.seedRows(n) },
    { file: 'tests/db/role-matrix.test.ts', anchor: 'const CASES: Record<string, TableCase> = {\n', where: 'after', text: t.roleMatrixCase(n) },
    { file: 'tests/db/role-matrix.test.ts', anchor: '      const accountId = admin.accountId;\n', where: 'after', text: t.roleMatrixFixture(n) },
    { file: 'tests/db/tenant-isolation.test.ts', anchor: '  cases.push(\n', where: 'before', text: t.tenantFixture(n) },
    { file: 'tests/db/tenant-isolation.test.ts', anchor: '  cases.push(\n', where: 'after', text: t.tenantCase(n) },
    { file: 'tests/worker/hostile-actions.ts', anchor: 'export const BUSINESS_ACTIONS: HostileAction[] = [\n', where: 'after', text: t.hostileAction(n) },
  ];
  // Every edit is worked out before anything is written: a missing anchor stops here, the tree untouched.
  const edited = new Map<string, string>();
  for (const edit of edits) edited.set(edit.file, applyEdit(edited.get(edit.file) ?? read(edit.file), edit));

  const created: [string, string][] = [
    [`${feature}/${name}.tsx`, t.listRoute(n)],
    [`${feature}/${name}-detail.tsx`, t.detailRoute(n)],
    [`${feature}/queries.server.ts`, t.queries(n)],
    [`${feature}/schema.ts`, t.schema(n)],
    [`${feature}/texts.ts`, t.texts(n)],
    [`supabase/migrations/${nextTimestamp()}_${n.table}.sql`, t.migration(n)],
    [`tests/db/${name}.test.ts`, t.dbTest(n)],
    [`tests/worker/${name}.test.ts`, t.workerTest(n)],
    [`tests/e2e/${name}.test.ts`, t.e2eTest(n)],
  ];
  mkdirSync(join(ROOT, feature), { recursive: true });
  for (const [file, text] of created) writeFileSync(join(ROOT, file), text, { flag: 'wx' });
  for (const [file, text] of edited) writeFileSync(join(ROOT, file), text);
  console.log(`new:module: wrote\n${created.map(([file]) => `  ${file}`).join('\n')}\nand added entries to\n${[...edited.keys()].map((file) => `  ${file}`).join('\n')}`);

  if (generate) {
    for (const script of ['db:schema', 'db:types']) {
      const run = spawnSync('npm', ['run', '-s', script], { cwd: ROOT, stdio: 'inherit' });
      if (run.status !== 0) fail(`npm run ${script} failed: fix the migration, then run it again`);
    }
  }
  console.log(`
Next (docs/adding-a-module.md):
  - shape the table in the migration and the form, then ${generate ? '' : '`npm run db:schema` and '}\`npm run db:types\` again
  - fill in tests/db/${name}.test.ts, tests/worker/${name}.test.ts and tests/e2e/${name}.test.ts (they fail until then)
  - a case for search_${n.table} in tests/db/list-search.test.ts; the status list in tests/unit/database-enumerations.test.ts
  - its section in docs/product-guide.md, its icon in app/lib/navigation.ts`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
