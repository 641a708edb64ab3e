// Where the local Storage keeps bytes on disk (.data/storage): any object
// name, "../" included, lands inside the folder, and versions are apart.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { diskBlobStore } from '../../supabase/local/storage/blobs.ts';

const root = mkdtempSync(join(tmpdir(), 'storage-blobs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const filesUnder = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));

it('keeps every object inside its folder, by version, until deleted', async () => {
  const store = diskBlobStore(root);
  const bytes = new TextEncoder().encode('hello');
  await store.put('documents', '../../../escape.txt', 'v1', bytes);
  await store.put('documents', '../../../escape.txt', 'v2', new TextEncoder().encode('again'));
  expect(await store.get('documents', '../../../escape.txt', 'v1')).toEqual(bytes);
  expect(new TextDecoder().decode((await store.get('documents', '../../../escape.txt', 'v2'))!)).toBe('again');
  for (const file of filesUnder(root)) expect(relative(root, file).startsWith('..')).toBe(false);
  expect(filesUnder(root)).toHaveLength(2);
  await store.delete('documents', '../../../escape.txt', 'v1');
  expect(await store.get('documents', '../../../escape.txt', 'v1')).toBeNull();
  expect(filesUnder(root)).toHaveLength(1);
});
