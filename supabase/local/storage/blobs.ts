// Where the bytes of stored objects live: a folder on disk for `npm start`
// (.data/storage), memory for tests. Keys are the bucket, the object name and
// its version (each upload writes a new version, as Storage does on S3); on
// disk the name is hashed, so no object name can reach outside the folder.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface BlobStore {
  put(bucket: string, name: string, version: string, bytes: Uint8Array): Promise<void>;
  /** null when the bytes are not there. */
  get(bucket: string, name: string, version: string): Promise<Uint8Array | null>;
  delete(bucket: string, name: string, version: string): Promise<void>;
}

const key = (bucket: string, name: string, version: string) => `${bucket}\0${name}\0${version}`;

export function memoryBlobStore(): BlobStore {
  const blobs = new Map<string, Uint8Array>();
  return {
    async put(bucket, name, version, bytes) {
      blobs.set(key(bucket, name, version), bytes.slice());
    },
    async get(bucket, name, version) {
      return blobs.get(key(bucket, name, version)) ?? null;
    },
    async delete(bucket, name, version) {
      blobs.delete(key(bucket, name, version));
    },
  };
}

export function diskBlobStore(root: string): BlobStore {
  const pathOf = (bucket: string, name: string, version: string) => {
    const hash = createHash('sha256').update(key(bucket, name, version)).digest('hex');
    return join(root, hash.slice(0, 2), hash);
  };
  return {
    async put(bucket, name, version, bytes) {
      const path = pathOf(bucket, name, version);
      await mkdir(join(path, '..'), { recursive: true });
      // Written aside and renamed, so a crash never leaves half a file under the name.
      await writeFile(`${path}.part`, bytes);
      await rename(`${path}.part`, path);
    },
    async get(bucket, name, version) {
      try {
        return new Uint8Array(await readFile(pathOf(bucket, name, version)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(bucket, name, version) {
      await rm(pathOf(bucket, name, version), { force: true });
    },
  };
}
