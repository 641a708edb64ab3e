// /storage/v1/bucket: create, list, read, update, empty and delete buckets.
// Each runs as the caller, so storage.buckets' policies decide (none on a
// default project: only the service role manages buckets), as on hosted Storage.
import { asCaller, asServer } from './caller.ts';
import { type StorageContext, type StorageRequest, findBucket, isUuid, json, jsonBody, requireString } from './context.ts';
import { ERRORS, fromPgError, StorageError } from './errors.ts';
import { mustBeValidBucketName, parseFileSizeLimit, validateAllowedMimeTypes } from './limits.ts';

const BUCKET_COLUMNS = 'id, name, owner, public, created_at, updated_at, file_size_limit, allowed_mime_types';
const SORT_COLUMNS = new Set(['id', 'name', 'created_at', 'updated_at']);

const bucketJson = (row: Record<string, unknown>) => ({
  ...row,
  file_size_limit: row.file_size_limit === null || row.file_size_limit === undefined ? null : Number(row.file_size_limit),
});

async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof StorageError) throw error;
    throw fromPgError(error);
  }
}

export async function bucketRoutes(ctx: StorageContext, req: StorageRequest): Promise<Response | null> {
  const { request, caller } = req;
  const call = { method: request.method, path: req.path };
  const id = /^\/bucket\/([^/]+)\/?$/.exec(req.path)?.[1];
  const empty = /^\/bucket\/([^/]+)\/empty\/?$/.exec(req.path)?.[1];

  if (/^\/bucket\/?$/.test(req.path) && request.method === 'POST') {
    const body = await jsonBody(request);
    const name = requireString(body, 'name');
    const bucketId = typeof body.id === 'string' && body.id !== '' ? body.id : name;
    mustBeValidBucketName(bucketId);
    const fileSizeLimit = parseFileSizeLimit(body.file_size_limit);
    const allowed = validateAllowedMimeTypes(body.allowed_mime_types);
    try {
      await asCaller(ctx.db, caller, call, (tx) =>
        tx.query(
          `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
           values ($1, $2, $3, $4, $5, $6, $7)`,
          [bucketId, name, isUuid(caller.owner) ? caller.owner : null, caller.owner ?? null, body.public === true, fileSizeLimit, allowed],
        ),
      );
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw ERRORS.bucketAlreadyExists();
      throw fromPgError(error);
    }
    return json({ name });
  }

  if (/^\/bucket\/?$/.test(req.path) && request.method === 'GET') {
    const q = req.url.searchParams;
    const sortColumn = q.get('sortColumn') ?? 'name';
    if (!SORT_COLUMNS.has(sortColumn)) throw ERRORS.invalidRequest('querystring/sortColumn must be equal to one of the allowed values');
    const order = q.get('sortOrder') === 'desc' ? 'desc' : 'asc';
    const limit = q.has('limit') ? Number(q.get('limit')) : null;
    const offset = q.has('offset') ? Number(q.get('offset')) : 0;
    const search = q.get('search') ?? '';
    const rows = await guarded(() =>
      asCaller(ctx.db, caller, call, async (tx) =>
        (
          await tx.query(
            `select ${BUCKET_COLUMNS}, type from storage.buckets
             where ($1 = '' or name ilike '%' || $1 || '%')
             order by ${sortColumn} ${order} limit $2 offset $3`,
            [search, limit, offset],
          )
        ).rows,
      ),
    );
    return json(rows.map(bucketJson));
  }

  if (id && request.method === 'GET') {
    const rows = await guarded(() =>
      asCaller(ctx.db, caller, call, async (tx) => (await tx.query(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [id])).rows),
    );
    if (!rows[0]) throw ERRORS.noSuchBucket();
    return json(bucketJson(rows[0]));
  }

  if (id && request.method === 'PUT') {
    const body = await jsonBody(request);
    const sets: string[] = [];
    const params: unknown[] = [id];
    if (body.public !== undefined) sets.push(`public = $${params.push(body.public === true)}`);
    if (body.file_size_limit !== undefined) sets.push(`file_size_limit = $${params.push(parseFileSizeLimit(body.file_size_limit))}`);
    if (body.allowed_mime_types !== undefined) sets.push(`allowed_mime_types = $${params.push(validateAllowedMimeTypes(body.allowed_mime_types))}`);
    sets.push('updated_at = now()');
    const updated = await guarded(() =>
      asCaller(ctx.db, caller, call, async (tx) => (await tx.query(`update storage.buckets set ${sets.join(', ')} where id = $1 returning id`, params)).rows),
    );
    if (!updated[0]) throw ERRORS.noSuchBucket();
    return json({ message: 'Successfully updated' });
  }

  if (id && request.method === 'DELETE') {
    // Counted as the server: objects the caller cannot see still keep the bucket.
    const objects = await asServer(ctx.db, async (tx) => {
      await findBucket(tx, id);
      return (await tx.query<{ n: number }>('select count(*)::int as n from (select 1 from storage.objects where bucket_id = $1 limit 1) o', [id])).rows[0].n;
    });
    if (objects > 0) throw ERRORS.bucketNotEmpty();
    const deleted = await guarded(() =>
      asCaller(ctx.db, caller, call, async (tx) => (await tx.query('delete from storage.buckets where id = $1 returning id', [id])).rows),
    );
    if (deleted.length === 0) throw ERRORS.noSuchBucket();
    return json({ message: 'Successfully deleted' });
  }

  if (empty && request.method === 'POST') {
    if (caller.role !== 'service_role') throw ERRORS.accessDenied('Access denied: Invalid role', 403);
    const removed = await asServer(ctx.db, async (tx) => {
      await findBucket(tx, empty);
      return (await tx.query<{ name: string; version: string | null }>('delete from storage.objects where bucket_id = $1 returning name, version', [empty])).rows;
    });
    await Promise.all(removed.map((row) => ctx.blobs.delete(empty, row.name, row.version ?? '')));
    return json({ message: 'Successfully emptied' });
  }
  return null;
}
