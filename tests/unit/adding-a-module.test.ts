// docs/adding-a-module.md names the files a new module copies: each path it
// names in backticks must exist, so the checklist cannot drift from the code
// (issue 33: it once named files that were gone). A path holding '<' is a
// placeholder (`app/features/<name>/`) and is skipped.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = 'docs/adding-a-module.md';

const TOPS = ['app/', 'docs/', 'scripts/', 'supabase/', 'tests/', 'bench/', 'public/', 'workers/'];
const FILE = /\.(tsx?|mjs|sql|md|toml|json)$/;

/**
 * Backticked spans that name a file or folder: a path from a top folder of the
 * repository, or a file name (a migration's, or one of a feature folder, as
 * `leads/leads.tsx`). No spaces, no placeholders.
 */
export function namedPaths(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\n]+)`/g)].map((m) => m[1].trim());
  const paths = spans.filter((span) => !/\s/.test(span) && !span.includes('<') && (TOPS.some((top) => span.startsWith(top)) || FILE.test(span)));
  return [...new Set(paths)];
}

/** Where a named path is looked for: from the root, among the migrations, among the feature folders. */
export function exists(path: string): boolean {
  return [path, `supabase/migrations/${path}`, `app/features/${path}`].some((candidate) => existsSync(join(ROOT, candidate)));
}

describe('the checklist for a new module', () => {
  const doc = readFileSync(join(ROOT, DOC), 'utf8');

  it('names only files and folders that exist', () => {
    const paths = namedPaths(doc);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((path) => !exists(path)), `paths named in ${DOC} that do not exist`).toEqual([]);
  });

  it('finds a path that is gone, and skips placeholders', () => {
    const named = namedPaths('copy `clients/new-client-form.tsx` or `app/features/clients/gone.ts`, then `app/features/<name>/schema.ts`, `npm run x`');
    expect(named).toEqual(['clients/new-client-form.tsx', 'app/features/clients/gone.ts']);
    expect(named.filter(exists)).toEqual([]);
    expect(exists('leads/leads.tsx') && exists('20261202400001_bills.sql')).toBe(true);
  });

  it('requires the search function, its indexes and the schema file', () => {
    for (const needed of ['search_', 'gin_trgm_ops', 'scripts/db-schema/features.ts', 'npm run db:schema', 'npm run new:module']) {
      expect(doc, needed).toContain(needed);
    }
  });
});
