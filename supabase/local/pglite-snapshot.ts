// A migrated PGlite data directory, read once per process and cloned into
// memory for each test database.
//
// Copying the snapshot folder for every test database cost 100–400 ms (a
// thousand small files, each a handful of syscalls) and left a folder to
// delete; writing the same bytes into PGlite's in-memory file system is a
// memcpy per file. Postgres then runs on MemoryFS exactly as it does in
// PGlite's own in-memory mode: the same pages, catalogue and WAL, just not on disk.
import { MemoryFS } from '@electric-sql/pglite';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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
function readDataDir(dataDir: string): SnapshotEntry[] {
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

// The same entries packed into one file next to the directory: a 4-byte
// length, a JSON index, then every file's bytes. One read of it takes a few
// milliseconds where the thousand small files take 100–300 ms, and every test
// process reads a snapshot once.
function pack(entries: readonly SnapshotEntry[]): Buffer {
  const index = JSON.stringify(entries.map(({ path, directory, size, data }) => ({ path, directory, size, length: data.length })));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(Buffer.byteLength(index));
  return Buffer.concat([head, Buffer.from(index), ...entries.map((e) => e.data)]);
}

function unpack(packed: Buffer): Snapshot {
  const indexLength = packed.readUInt32LE(0);
  const index = JSON.parse(packed.toString('utf8', 4, 4 + indexLength)) as (Omit<SnapshotEntry, 'data'> & { length: number })[];
  let at = 4 + indexLength;
  return index.map(({ path, directory, size, length }) => {
    const data = packed.subarray(at, at + length);
    at += length;
    return { path, directory, size, data };
  });
}

/** A data directory in memory, from its pack (written on first use). */
export function readSnapshot(dataDir: string): Snapshot {
  const packFile = `${dataDir}.pack`;
  if (existsSync(packFile)) return unpack(readFileSync(packFile));
  const entries = readDataDir(dataDir);
  // Written under a name of its own and renamed, so parallel test processes never read half a pack.
  const partial = `${packFile}.${process.pid}`;
  writeFileSync(partial, pack(entries));
  renameSync(partial, packFile);
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
