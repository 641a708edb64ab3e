// A feature's files live in its folder (issue 33): app/lib and app/components
// hold only what two or more users share. This reads the import statements of
// app/** and workers/** and fails when a file there has a single user, so the
// next single-screen helper is written in its feature, not beside the shared kit.
//
// Who counts as a user:
// - a feature: every file under app/features/<name>/ is one user (settings is one
//   feature with a folder per screen);
// - a screen outside the features: each public page in app/routes/ is one user;
// - the shell (app/root.tsx, app/entry.server.tsx, the signed-in layout and its
//   error boundary, the jobs runner in app/jobs/, the Worker in workers/) wraps
//   or serves every feature, so what it imports is shared by definition;
// - a file in app/lib or app/components is used by the users of its importers
//   (the PDF kit's text.ts is used by whoever uses the kit), followed through.
// Tests, scripts and the local backend import app files too; they do not count.
//
// Not checked (EXCEPTIONS below): the UI primitives (app/components/ui/, a kit
// kept whole like a library's) and generated files (app/lib/database.types.ts
// from `npm run db:types`, the vendored font data in app/lib/pdf/fonts/).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SHARED_FOLDERS = ['app/lib', 'app/components'];
const EXCEPTIONS = [
  /^app\/components\/ui\//, /^app\/lib\/database\.types\.ts$/, /^app\/lib\/pdf\/fonts\//,
];
const SHELL = [
  /^app\/root\.tsx$/,
  /^app\/entry\.server\.tsx$/,
  /^app\/routes\.ts$/,
  /^app\/routes\/app-layout\.tsx$/,
  /^app\/routes\/screen-error-boundary\.tsx$/,
  /^app\/jobs\//,
  /^workers\//,
];
const SHELL_USER = 'the shell';

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, folder));
  return found;
}

// Static imports and re-exports, side-effect imports and import() with a literal path.
const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

/** The repository path an import names, or null for a package or a generated file (./+types/…). */
function resolveImport(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('~/')) base = join(ROOT, 'app', spec.slice(2));
  else if (spec.startsWith('.')) base = resolve(ROOT, dirname(from), spec);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(ROOT, candidate);
  }
  return null;
}

/** Every file each shared file is imported by (within app/ and workers/). */
function importersOf(files: string[]): Map<string, Set<string>> {
  const importers = new Map<string, Set<string>>();
  for (const file of files) {
    const source = readFileSync(join(ROOT, file), 'utf8');
    for (const match of source.matchAll(IMPORT)) {
      const target = resolveImport(file, match[1] ?? match[2] ?? match[3]);
      if (!target || target === file) continue;
      if (!importers.has(target)) importers.set(target, new Set());
      importers.get(target)!.add(file);
    }
  }
  return importers;
}

const isShared = (file: string) => SHARED_FOLDERS.some((folder) => file.startsWith(`${folder}/`));

/** The user an importing file stands for, or null when it is itself shared (followed through). */
function userOf(file: string): string | null {
  if (SHELL.some((pattern) => pattern.test(file))) return SHELL_USER;
  const feature = /^app\/features\/([^/]+)\//.exec(file);
  if (feature) return `app/features/${feature[1]}/`;
  if (isShared(file)) return null;
  return file;
}

function usersOf(file: string, importers: Map<string, Set<string>>, seen = new Set<string>()): Set<string> {
  const users = new Set<string>();
  if (seen.has(file)) return users;
  seen.add(file);
  for (const importer of importers.get(file) ?? []) {
    const user = userOf(importer);
    if (user) users.add(user);
    else for (const through of usersOf(importer, importers, seen)) users.add(through);
  }
  return users;
}

describe('app/lib and app/components hold only shared files', () => {
  const files = [...sourceFiles('app'), ...sourceFiles('workers')];
  const importers = importersOf(files);
  const shared = files.filter((file) => isShared(file) && !EXCEPTIONS.some((pattern) => pattern.test(file)));

  it('finds the shared files and their importers', () => {
    // A guard against a scan that silently reads nothing.
    expect(shared.length).toBeGreaterThan(50);
    expect(usersOf('app/lib/money.ts', importers).size).toBeGreaterThan(2);
  });

  it('has no file used by a single feature, screen or file: it belongs in that feature', () => {
    const single = shared
      .map((file) => ({ file, users: [...usersOf(file, importers)] }))
      .filter(({ users }) => !users.includes(SHELL_USER) && users.length < 2)
      .map(({ file, users }) => `${file}: ${users.length === 0 ? 'no user in app/' : `used only by ${users[0]}`}`);
    expect(single).toEqual([]);
  });
});
