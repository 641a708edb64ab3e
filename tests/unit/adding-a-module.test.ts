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

/** Backticked spans that read as a path of the repository: a top folder of it, a slash, no spaces. */
export function namedPaths(markdown: string): string[] {
  const tops = ['app/', 'docs/', 'scripts/', 'supabase/', 'tests/', 'bench/', 'public/', 'workers/'];
  const spans = [...markdown.matchAll(/`([^`\n]+)`/g)].map((m) => m[1].trim());
  const paths = spans.filter((span) => tops.some((top) => span.startsWith(top)) && !/\s/.test(span) && !span.includes('<'));
  return [...new Set(paths)];
}

describe('the checklist for a new module', () => {
  const doc = readFileSync(join(ROOT, DOC), 'utf8');

  it('names only files and folders that exist', () => {
    const paths = namedPaths(doc);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((path) => !existsSync(join(ROOT, path))), `paths named in ${DOC} that do not exist`).toEqual([]);
  });

  it('finds a path that is gone, and skips placeholders', () => {
    const named = namedPaths('copy `app/features/clients/new-client-form.tsx`, then `app/features/<name>/schema.ts` and `npm run x`');
    expect(named).toEqual(['app/features/clients/new-client-form.tsx']);
    expect(existsSync(join(ROOT, named[0]))).toBe(false);
  });

  it('requires the search function, its indexes and the schema file', () => {
    for (const needed of ['search_', 'gin_trgm_ops', 'scripts/db-schema/features.ts', 'npm run db:schema', 'npm run new:module']) {
      expect(doc, needed).toContain(needed);
    }
  });
});
