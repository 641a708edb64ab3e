// A migrated PGlite data directory, read once per process and cloned into
// memory for each test database.
//
// Copying the snapshot folder for every test database cost 100–400 ms (a
// thousand small files, each a handful of syscalls) and left a folder to
// delete; writing the same bytes into PGlite's in-memory file system is a
// memcpy per file. Postgres then runs on MemoryFS exactly as it does in
// PGlite's own in-memory mode: the same pages, catalogue and WAL, just not on disk.
import { MemoryFS } from '@electric-sql/pglite';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where PGlite keeps PGDATA inside its file system. */
const PGDATA = '/pglite/data';

interface SnapshotEntry {
  /** Relative to PGDATA, starting with '/'. */
  path: string;
  directory: boolean;
  /** The file's bytes up to its trailing zeros (a WAL segment is mostly preallocated zeros). */
  data: Uint8Array;
  size: number;
}

export type Snapshot = readonly SnapshotEntry[];

function withoutTrailingZeros(bytes: Buffer): Uint8Array {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return new Uint8Array(bytes.subarray(0, end));
}

/** Reads a data directory into memory, parents before children. */
export function readSnapshot(dataDir: string): Snapshot {
  const entries: SnapshotEntry[] = [];
  const walk = (dir: string, relative: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        entries.push({ path, directory: true, data: new Uint8Array(0), size: 0 });
        walk(join(dir, entry.name), path);
      } else {
        const bytes = readFileSync(join(dir, entry.name));
        entries.push({ path, directory: false, data: withoutTrailingZeros(bytes), size: bytes.length });
      }
    }
  };
  walk(dataDir, '');
  return entries;
}

interface EmscriptenFs {
  mkdirTree(path: string): void;
  mkdir(path: string): void;
  writeFile(path: string, data: Uint8Array, options?: { canOwn?: boolean }): void;
}

/**
 * PGlite's MemoryFS, filled with a snapshot before Postgres starts (PGlite
 * then finds PG_VERSION and resumes instead of running initdb).
 */
export class SnapshotMemoryFs extends MemoryFS {
  readonly #snapshot: Snapshot;

  constructor(snapshot: Snapshot) {
    super();
    this.#snapshot = snapshot;
  }

  override async initialSyncFs(): Promise<void> {
    const fs = (this.pg as unknown as { Module: { FS: EmscriptenFs } }).Module.FS;
    fs.mkdirTree(PGDATA);
    for (const entry of this.#snapshot) {
      if (entry.directory) {
        fs.mkdir(PGDATA + entry.path);
        continue;
      }
      // A fresh array per database: Postgres writes into its files in place,
      // so the snapshot's own bytes must never be handed over.
      const contents = new Uint8Array(entry.size);
      contents.set(entry.data);
      fs.writeFile(PGDATA + entry.path, contents, { canOwn: true });
    }
  }
}
