// /storage/v1/object: download, info, list, move, copy, remove, and signed
// URLs, each answering as supabase/storage does for the same request.
import { randomUUID } from 'node:crypto';
import { signJwt, verifyJwt } from '../keys.ts';
import { asCaller, asServer, type Caller, testPermission } from './caller.ts';
import { type StorageContext, type ObjectRow, type StorageRequest, findBucket, findObject, isUuid, json, jsonBody, requireString } from './context.ts';
import { ERRORS, fromPgError, StorageError } from './errors.ts';
import { mustBeValidKey } from './limits.ts';
import { objectSafetyHeaders } from './serve.ts';
import { canUpload, completeUpload, mustFitBucket, upload } from './upload.ts';

const DOWNLOAD_SCOPE = 'download';

async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof StorageError) throw error;
    throw fromPgError(error);
  }
}

/** bucket and object name from `<bucket>/<name…>`. */
function split(rest: string): { bucketId: string; name: string } {
  const slash = rest.indexOf('/');
  if (slash <= 0) throw ERRORS.invalidKey(rest);
  return { bucketId: rest.slice(0, slash), name: rest.slice(slash + 1) };
}

/** The object as the caller sees it; public buckets are read as the server. */
async function visibleObject(ctx: StorageContext, caller: Caller, call: { method: string; path: string }, bucketId: string, name: string): Promise<ObjectRow> {
  const bucket = await findBucket(ctx.db, bucketId).catch((error) => {
    throw error instanceof StorageError ? error : fromPgError(error);
  });
  if (!caller.authenticated && !bucket.public) throw ERRORS.noSuchBucket();
  mustBeValidKey(name);
  if (bucket.public) return guarded(() => findObject(ctx.db, bucketId, name));
  return guarded(() => asCaller(ctx.db, caller, call, (tx) => findObject(tx, bucketId, name)));
}

async function render(ctx: StorageContext, object: ObjectRow, download: string | null, expires?: string): Promise<Response> {
  const bytes = await ctx.blobs.get(object.bucket_id, object.name, object.version ?? '');
  if (!bytes) throw ERRORS.notFound();
  const metadata = object.metadata;
  const headers: Record<string, string> = {
    'Accept-Ranges': 'bytes',
    ETag: metadata?.eTag ?? '',
    'X-Robots-Tag': 'none',
    'Last-Modified': new Date(object.updated_at).toUTCString(),
    // Data, never a page on the backend's origin (serve.ts).
    ...objectSafetyHeaders(metadata?.mimetype ?? 'application/octet-stream', download),
  };
  if (expires) headers.Expires = expires;
  else headers['Cache-Control'] = metadata?.cacheControl ?? 'no-cache';
  return new Response(new Uint8Array(bytes), { status: 200, headers });
}

function info(object: ObjectRow): Response {
  const metadata = object.metadata;
  return json(
    {
      id: object.id,
      name: object.name,
      version: object.version,
      bucket_id: object.bucket_id,
      size: metadata?.size ?? null,
      content_type: metadata?.mimetype ?? null,
      cache_control: metadata?.cacheControl ?? null,
      etag: metadata?.eTag ?? null,
      metadata: object.user_metadata,
      last_modified: object.updated_at,
      created_at: object.created_at,
    },
    200,
    { ETag: metadata?.eTag ?? '' },
  );
}

function expiresIn(body: Record<string, unknown>): number {
  const value = body.expiresIn;
  if (value === undefined || value === null) throw ERRORS.invalidRequest("body must have required property 'expiresIn'");
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1) throw ERRORS.invalidRequest('body/expiresIn must be >= 1');
  return seconds;
}

const signedPath = async (ctx: StorageContext, url: string, seconds: number) =>
  `/object/sign/${url}?token=${await signJwt({ url, scope: DOWNLOAD_SCOPE }, ctx.jwtSecret, seconds)}`;

async function signedDownload(ctx: StorageContext, req: StorageRequest, bucketId: string, name: string): Promise<Response> {
  const token = req.url.searchParams.get('token');
  if (!token) throw ERRORS.invalidRequest("querystring must have required property 'token'");
  let payload: { url?: unknown; scope?: unknown; exp?: number };
  try {
    payload = await verifyJwt(token, ctx.jwtSecret);
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_JWT_EXPIRED') throw ERRORS.expiredSignature();
    throw ERRORS.invalidJwt((error as Error).message);
  }
  if (payload.scope !== undefined && payload.scope !== DOWNLOAD_SCOPE) throw ERRORS.invalidSignature(`Token is not scoped for ${DOWNLOAD_SCOPE}`);
  if (payload.url !== `${bucketId}/${name}`) throw ERRORS.invalidSignature();
  const object = await guarded(() => findObject(ctx.db, bucketId, name));
  return render(ctx, object, req.url.searchParams.get('download'), new Date((payload.exp ?? 0) * 1000).toUTCString());
}

async function list(ctx: StorageContext, req: StorageRequest, bucketId: string): Promise<Response> {
  const body = await jsonBody(req.request);
  const prefix = requireString(body, 'prefix');
  const limit = body.limit === undefined ? 100 : Number(body.limit);
  const offset = body.offset === undefined ? 0 : Number(body.offset);
  if (!Number.isInteger(limit) || limit < 1) throw ERRORS.invalidRequest('body/limit must be >= 1');
  if (!Number.isInteger(offset) || offset < 0) throw ERRORS.invalidRequest('body/offset must be >= 0');
  const sortBy = (body.sortBy ?? {}) as { column?: string; order?: string };
  const search = typeof body.search === 'string' ? body.search : '';
  const normalized = prefix.length > 0 && !prefix.endsWith('/') ? `${prefix}/` : prefix;
  const rows = await guarded(() =>
    asCaller(ctx.db, req.caller, { method: 'POST', path: req.path }, async (tx) => {
      return (
        await tx.query('select * from storage.search($1, $2, $3, $4, $5, $6, $7, $8)', [
          normalized,
          bucketId,
          limit,
          (normalized + search).split('/').length,
          offset,
          search,
          sortBy.column ?? 'name',
          sortBy.order ?? 'asc',
        ])
      ).rows;
    }),
  );
  return json(rows);
}

async function remove(ctx: StorageContext, req: StorageRequest, bucketId: string, names: string[]): Promise<ObjectRow[]> {
  const deleted = await guarded(() =>
    asCaller(ctx.db, req.caller, { method: 'DELETE', path: req.path }, async (tx) =>
      (await tx.query<ObjectRow>('delete from storage.objects where bucket_id = $1 and name = any($2) returning *', [bucketId, names])).rows,
    ),
  );
  await Promise.all(deleted.map((row) => ctx.blobs.delete(bucketId, row.name, row.version ?? '')));
  return deleted;
}

async function move(ctx: StorageContext, req: StorageRequest): Promise<Response> {
  const body = await jsonBody(req.request);
  const bucketId = requireString(body, 'bucketId');
  const sourceKey = requireString(body, 'sourceKey');
  const destinationKey = requireString(body, 'destinationKey');
  const destinationBucket = typeof body.destinationBucket === 'string' && body.destinationBucket !== '' ? body.destinationBucket : bucketId;
  mustBeValidKey(destinationKey);
  if (destinationBucket !== bucketId) {
    const source = await guarded(() => asCaller(ctx.db, req.caller, { method: 'POST', path: req.path }, (tx) => findObject(tx, bucketId, sourceKey)));
    await guarded(() => mustFitBucket(ctx, destinationBucket, source.metadata));
  }
  const version = randomUUID();
  const owner = req.caller.owner;
  const call = { method: 'POST', path: req.path };
  // The caller must see the source and be allowed to rename it to the destination.
  await guarded(() =>
    testPermission(ctx.db, req.caller, call, async (tx) => {
      await findObject(tx, bucketId, sourceKey);
      const { rows } = await tx.query(
        `update storage.objects set name = $3, bucket_id = $4, version = $5, owner = $6, owner_id = $7, updated_at = now()
         where bucket_id = $1 and name = $2 returning id`,
        [bucketId, sourceKey, destinationKey, destinationBucket, version, isUuid(owner) ? owner : null, owner ?? null],
      );
      if (!rows[0]) throw ERRORS.noSuchKey();
    }),
  );
  const source = await guarded(() => findObject(ctx.db, bucketId, sourceKey));
  if (bucketId === destinationBucket && sourceKey === destinationKey) return json({ message: 'Successfully moved', Id: source.id, Key: source.name });
  const bytes = await ctx.blobs.get(bucketId, sourceKey, source.version ?? '');
  if (!bytes) throw ERRORS.notFound();
  await ctx.blobs.put(destinationBucket, destinationKey, version, bytes);
  try {
    await guarded(() =>
      asServer(ctx.db, (tx) =>
        tx.query(
          `update storage.objects set name = $3, bucket_id = $4, version = $5, owner = $6, owner_id = $7, updated_at = now()
           where bucket_id = $1 and name = $2`,
          [bucketId, sourceKey, destinationKey, destinationBucket, version, isUuid(owner) ? owner : null, owner ?? null],
        ),
      ),
    );
  } catch (error) {
    await ctx.blobs.delete(destinationBucket, destinationKey, version);
    throw error;
  }
  await ctx.blobs.delete(bucketId, sourceKey, source.version ?? '');
  return json({ message: 'Successfully moved', Id: source.id, Key: destinationKey });
}

async function copy(ctx: StorageContext, req: StorageRequest): Promise<Response> {
  const body = await jsonBody(req.request);
  const bucketId = requireString(body, 'bucketId');
  const sourceKey = requireString(body, 'sourceKey');
  const destinationKey = requireString(body, 'destinationKey');
  const destinationBucket = typeof body.destinationBucket === 'string' && body.destinationBucket !== '' ? body.destinationBucket : bucketId;
  mustBeValidKey(destinationKey);
  const upsert = req.request.headers.get('x-upsert') === 'true';
  const call = { method: 'POST', path: req.path };
  const source = await guarded(() => asCaller(ctx.db, req.caller, call, (tx) => findObject(tx, bucketId, sourceKey)));
  if (destinationBucket !== bucketId) await guarded(() => mustFitBucket(ctx, destinationBucket, source.metadata));
  const version = randomUUID();
  const object = {
    bucketId: destinationBucket,
    name: destinationKey,
    owner: req.caller.owner,
    metadata: { ...(source.metadata ?? {}) },
    userMetadata: source.user_metadata ?? undefined,
    version,
  };
  await canUpload(ctx, req.caller, req.path, object, upsert);
  const bytes = await ctx.blobs.get(bucketId, sourceKey, source.version ?? '');
  if (!bytes) throw ERRORS.notFound();
  await ctx.blobs.put(destinationBucket, destinationKey, version, bytes);
  let row: ObjectRow;
  try {
    row = await guarded(() => completeUpload(ctx, { ...object, metadata: { ...object.metadata, lastModified: new Date().toUTCString() } }));
  } catch (error) {
    await ctx.blobs.delete(destinationBucket, destinationKey, version);
    throw error;
  }
  return json({ Id: row.id, Key: `${destinationBucket}/${destinationKey}`, ...row });
}

async function signOne(ctx: StorageContext, req: StorageRequest, bucketId: string, name: string): Promise<Response> {
  const seconds = expiresIn(await jsonBody(req.request));
  await guarded(() => asCaller(ctx.db, req.caller, { method: 'POST', path: req.path }, (tx) => findObject(tx, bucketId, name)));
  return json({ signedURL: await signedPath(ctx, `${bucketId}/${name}`, seconds) });
}

async function signMany(ctx: StorageContext, req: StorageRequest, bucketId: string): Promise<Response> {
  const body = await jsonBody(req.request);
  const seconds = expiresIn(body);
  if (!Array.isArray(body.paths)) throw ERRORS.invalidRequest("body must have required property 'paths'");
  const paths = body.paths.map(String);
  const visible = await guarded(() =>
    asCaller(ctx.db, req.caller, { method: 'POST', path: req.path }, async (tx) =>
      (await tx.query<{ name: string }>('select name from storage.objects where bucket_id = $1 and name = any($2)', [bucketId, paths])).rows,
    ),
  );
  const names = new Set(visible.map((row) => row.name));
  return json(
    await Promise.all(
      paths.map(async (path) =>
        names.has(path)
          ? { error: null, path, signedURL: await signedPath(ctx, `${bucketId}/${path}`, seconds) }
          : { error: 'Either the object does not exist or you do not have access to it', path, signedURL: null },
      ),
    ),
  );
}

export async function objectRoutes(ctx: StorageContext, req: StorageRequest): Promise<Response | null> {
  const { request, path } = req;
  const method = request.method;
  const call = { method, path };
  let m: RegExpExecArray | null;

  if (path === '/object/move' && method === 'POST') return move(ctx, req);
  if (path === '/object/copy' && method === 'POST') return copy(ctx, req);
  if ((m = /^\/object\/list\/([^/]+)$/.exec(path)) && method === 'POST') return list(ctx, req, m[1]);
  if ((m = /^\/object\/sign\/([^/]+)$/.exec(path)) && method === 'POST') return signMany(ctx, req, m[1]);
  if ((m = /^\/object\/sign\/(.+)$/.exec(path))) {
    const { bucketId, name } = split(m[1]);
    if (method === 'POST') return signOne(ctx, req, bucketId, name);
    if (method === 'GET' || method === 'HEAD') return signedDownload(ctx, req, bucketId, name);
  }
  if ((m = /^\/object\/info\/(?:authenticated\/|public\/)?(.+)$/.exec(path)) && method === 'GET') {
    const { bucketId, name } = split(m[1]);
    return info(await visibleObject(ctx, req.caller, call, bucketId, name));
  }
  if ((m = /^\/object\/(authenticated|public)\/(.+)$/.exec(path)) && (method === 'GET' || method === 'HEAD')) {
    const { bucketId, name } = split(m[2]);
    if (m[1] === 'public' && !(await findBucket(ctx.db, bucketId)).public) throw ERRORS.noSuchBucket();
    return render(ctx, await visibleObject(ctx, req.caller, call, bucketId, name), req.url.searchParams.get('download'));
  }
  if ((m = /^\/object\/([^/]+)$/.exec(path)) && method === 'DELETE') {
    const body = await jsonBody(request);
    if (!Array.isArray(body.prefixes)) throw ERRORS.invalidRequest("body must have required property 'prefixes'");
    if (body.prefixes.length < 1) throw ERRORS.invalidRequest('body/prefixes must NOT have fewer than 1 items');
    return json(await remove(ctx, req, m[1], body.prefixes.map(String)));
  }
  if ((m = /^\/object\/(.+)$/.exec(path))) {
    const { bucketId, name } = split(m[1]);
    if (method === 'POST' || method === 'PUT') {
      const upsert = method === 'PUT' || request.headers.get('x-upsert') === 'true';
      const result = await upload(ctx, request, path, req.caller, bucketId, name, upsert);
      return json({ Id: result.id, Key: result.key });
    }
    if (method === 'GET' || method === 'HEAD') return render(ctx, await visibleObject(ctx, req.caller, call, bucketId, name), req.url.searchParams.get('download'));
    if (method === 'DELETE') {
      mustBeValidKey(name);
      const deleted = await remove(ctx, req, bucketId, [name]);
      if (deleted.length === 0) {
        // Storage tells "not there" from "not yours": it looks as the server first.
        await guarded(() => findObject(ctx.db, bucketId, name));
        throw ERRORS.accessDenied();
      }
      return json({ message: 'Successfully deleted' });
    }
  }
  return null;
}
