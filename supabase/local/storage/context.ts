// What the Storage routes are handed, and the small helpers they share.
import type { Db, Queryable } from '../db.ts';
import type { SigningKey } from '../keys.ts';
import type { BlobStore } from './blobs.ts';
import type { Caller } from './caller.ts';
import { ERRORS } from './errors.ts';

export interface StorageContext {
  db: Db;
  /** Signs Storage's own URLs (HS256), and verifies API keys. */
  jwtSecret: string;
  /** Verifies the users' access tokens (ES256) when the project has one. */
  signingKey: SigningKey | null;
  blobs: BlobStore;
}

export interface StorageRequest {
  request: Request;
  url: URL;
  /** The path under /storage/v1, decoded segment by segment. */
  path: string;
  caller: Caller;
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers } });

/** A JSON object body; anything else is Storage's schema refusal. */
export async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '') return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // falls through to the refusal
  }
  throw ERRORS.invalidRequest('Body is not valid JSON');
}

export function requireString(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (value === undefined || value === null) throw ERRORS.invalidRequest(`body must have required property '${name}'`);
  if (typeof value !== 'string') throw ERRORS.invalidRequest(`body/${name} must be string`);
  return value;
}

export interface BucketRow {
  id: string;
  name: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
}

/** Found as the server itself (Storage's asSuperUser().findBucket). */
export async function findBucket(q: Queryable, id: string): Promise<BucketRow> {
  const { rows } = await q.query<BucketRow>(
    'select id, name, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1',
    [id],
  );
  if (!rows[0]) throw ERRORS.noSuchBucket();
  const row = rows[0];
  return { ...row, file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit) };
}

export interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: ObjectMetadata | null;
  user_metadata: Record<string, unknown> | null;
  created_at: Date | string;
  updated_at: Date | string;
  last_accessed_at: Date | string;
}

export interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

/** One object, visible to whoever q runs as; Storage's NoSuchKey when not. */
export async function findObject(q: Queryable, bucketId: string, name: string, forUpdate = false): Promise<ObjectRow> {
  const { rows } = await q.query<ObjectRow>(
    `select * from storage.objects where bucket_id = $1 and name = $2${forUpdate ? ' for update' : ''}`,
    [bucketId, name],
  );
  if (!rows[0]) throw ERRORS.noSuchKey();
  return rows[0];
}

export const isUuid = (value: string | undefined) =>
  !!value && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-5][0-9a-f]{3}-[089ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(value);
