// Uploads (POST and PUT /object/<bucket>/<name>): the body read as Storage
// reads it (multipart with the file and its fields, or the raw bytes with
// Content-Type), the bucket's size limit and MIME types checked, the caller's
// policies asked by writing the row and rolling it back, then the bytes
// stored under a new version and the row written as the server.
import { createHash, randomUUID } from 'node:crypto';
import { asServer, type Caller, testPermission } from './caller.ts';
import { findBucket, isUuid, type ObjectMetadata, type ObjectRow, type StorageContext } from './context.ts';
import { ERRORS, fromPgError, StorageError } from './errors.ts';
import { GLOBAL_FILE_SIZE_LIMIT, mustBeValidKey, validateMimeType } from './limits.ts';

interface FileUpload {
  bytes: Uint8Array;
  mimeType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | undefined;
}

function parseUserMetadata(base64: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(Buffer.from(base64, 'base64').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

async function readUpload(request: Request, maxFileSize: number, allowed: readonly string[] | null): Promise<FileUpload> {
  const contentType = request.headers.get('content-type') ?? '';
  if (contentType.startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw ERRORS.noContent();
    }
    let file: File | null = null;
    form.forEach((value) => {
      if (!file && typeof value !== 'string') file = value;
    });
    if (!file) throw ERRORS.noContent();
    const upload: File = file;
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : undefined;
    };
    const mimeType = field('contentType') || upload.type || 'text/plain';
    if (allowed && allowed.length > 0) validateMimeType(mimeType, allowed);
    if (upload.size > maxFileSize) throw ERRORS.entityTooLarge();
    const custom = field('metadata') ?? field('userMetadata');
    let userMetadata: Record<string, unknown> | undefined;
    if (custom !== undefined) {
      try {
        userMetadata = JSON.parse(custom) as Record<string, unknown>;
      } catch {
        userMetadata = undefined;
      }
    }
    const cacheTime = field('cacheControl');
    return { bytes: new Uint8Array(await upload.arrayBuffer()), mimeType, cacheControl: cacheTime ? `max-age=${cacheTime}` : 'no-cache', userMetadata };
  }
  const mimeType = contentType || 'application/octet-stream';
  if (allowed && allowed.length > 0) validateMimeType(mimeType, allowed);
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxFileSize) throw ERRORS.entityTooLarge();
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.length > maxFileSize) throw ERRORS.entityTooLarge();
  const custom = request.headers.get('x-metadata');
  return {
    bytes,
    mimeType,
    cacheControl: request.headers.get('cache-control') ?? 'no-cache',
    userMetadata: custom ? parseUserMetadata(custom) : undefined,
  };
}

export function objectMetadata(bytes: Uint8Array, mimeType: string, cacheControl: string): ObjectMetadata {
  return {
    eTag: `"${createHash('md5').update(bytes).digest('hex')}"`,
    size: bytes.length,
    mimetype: mimeType,
    cacheControl,
    lastModified: new Date().toUTCString(),
    contentLength: bytes.length,
    httpStatusCode: 200,
  };
}

export interface NewObject {
  bucketId: string;
  name: string;
  owner: string | undefined;
  metadata: Partial<ObjectMetadata>;
  userMetadata: Record<string, unknown> | undefined;
  version: string;
}

const INSERT = `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
  values ($1, $2, $3, $4, $5, $6, $7)`;
const UPSERT = `${INSERT}
  on conflict (bucket_id, name) do update set owner = excluded.owner, owner_id = excluded.owner_id, metadata = excluded.metadata,
    user_metadata = excluded.user_metadata, version = excluded.version, updated_at = now()`;

const rowParams = (o: NewObject) => [
  o.bucketId,
  o.name,
  isUuid(o.owner) ? o.owner : null,
  o.owner ?? null,
  JSON.stringify(o.metadata),
  o.userMetadata === undefined ? null : JSON.stringify(o.userMetadata),
  o.version,
];

/** Storage's canUpload: the insert (or upsert) the caller's policies must allow, rolled back. */
export async function canUpload(ctx: StorageContext, caller: Caller, path: string, object: NewObject, upsert: boolean): Promise<void> {
  try {
    await testPermission(ctx.db, caller, { method: 'POST', path }, (tx) => tx.query(upsert ? UPSERT : INSERT, rowParams(object)));
  } catch (error) {
    if (error instanceof StorageError) throw error;
    throw fromPgError(error);
  }
}

/** Writes the row as the server; the bytes of the version it replaced go. */
export async function completeUpload(ctx: StorageContext, object: NewObject): Promise<ObjectRow> {
  const { row, previous } = await asServer(ctx.db, async (tx) => {
    const before = await tx.query<{ version: string | null }>('select version from storage.objects where bucket_id = $1 and name = $2 for update', [
      object.bucketId,
      object.name,
    ]);
    const written = await tx.query<ObjectRow>(`${UPSERT} returning *`, rowParams(object));
    return { row: written.rows[0], previous: before.rows[0]?.version ?? null };
  });
  if (previous !== null && previous !== object.version) await ctx.blobs.delete(object.bucketId, object.name, previous);
  return row;
}

/**
 * A copy or move into a bucket keeps that bucket's rules: a file the bucket
 * would refuse as an upload (its type, its size) is refused there too, so no
 * object reaches a bucket by way of another with looser limits.
 */
export async function mustFitBucket(ctx: StorageContext, bucketId: string, metadata: Partial<ObjectMetadata> | null): Promise<void> {
  const bucket = await findBucket(ctx.db, bucketId);
  const allowed = bucket.allowed_mime_types;
  if (allowed && allowed.length > 0) validateMimeType(metadata?.mimetype ?? 'application/octet-stream', allowed);
  const limit = Math.min(bucket.file_size_limit ?? GLOBAL_FILE_SIZE_LIMIT, GLOBAL_FILE_SIZE_LIMIT);
  if ((metadata?.size ?? 0) > limit) throw ERRORS.entityTooLarge();
}

export async function upload(ctx: StorageContext, request: Request, path: string, caller: Caller, bucketId: string, name: string, upsert: boolean) {
  const bucket = await findBucket(ctx.db, bucketId);
  const maxFileSize = Math.min(bucket.file_size_limit ?? GLOBAL_FILE_SIZE_LIMIT, GLOBAL_FILE_SIZE_LIMIT);
  const file = await readUpload(request, maxFileSize, bucket.allowed_mime_types);
  mustBeValidKey(name);
  const version = randomUUID();
  const object: NewObject = {
    bucketId,
    name,
    owner: caller.owner,
    metadata: { mimetype: file.mimeType, contentLength: file.bytes.length },
    userMetadata: file.userMetadata,
    version,
  };
  await canUpload(ctx, caller, path, object, upsert);
  await ctx.blobs.put(bucketId, name, version, file.bytes);
  try {
    const row = await completeUpload(ctx, { ...object, metadata: objectMetadata(file.bytes, file.mimeType, file.cacheControl) });
    return { id: row.id, key: `${bucketId}/${name}` };
  } catch (error) {
    await ctx.blobs.delete(bucketId, name, version);
    if (error instanceof StorageError) throw error;
    throw fromPgError(error);
  }
}
