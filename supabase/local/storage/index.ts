// /storage/v1: Supabase Storage's HTTP API as @supabase/storage-js calls it.
// Routes in buckets.ts and objects.ts; who asks in caller.ts; the bytes in
// blobs.ts (disk or memory); errors shaped as the storage server's.
import type { SigningKey } from '../keys.ts';
import { bucketRoutes } from './buckets.ts';
import { callerOf } from './caller.ts';
import type { StorageContext, StorageRequest } from './context.ts';
import { errorResponse, ERRORS, fromPgError, StorageError } from './errors.ts';
import { objectRoutes } from './objects.ts';
import { isPgError } from '../rest/errors.ts';

export { diskBlobStore, memoryBlobStore } from './blobs.ts';

/** Routes that serve without a token too (public buckets, signed URLs), as Storage's allowInvalidJwt and public routes. */
function tokenOptional(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  return /^\/object\/(public|sign|info\/public)\//.test(path) || (/^\/object\/[^/]+\//.test(path) && !/^\/object\/(authenticated|info)\//.test(path));
}

export function createStorageHandler(options: Omit<StorageContext, 'signingKey'> & { signingKey?: SigningKey | null; quiet?: boolean }) {
  const ctx: StorageContext = { db: options.db, jwtSecret: options.jwtSecret, signingKey: options.signingKey ?? null, blobs: options.blobs };
  return async (request: Request): Promise<Response> => {
    const response = await handle(request);
    // Every answer, errors included, is what it says it is (serve.ts says why).
    if (!response.headers.has('X-Content-Type-Options')) response.headers.set('X-Content-Type-Options', 'nosniff');
    return response;
  };

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    let path: string;
    try {
      path = url.pathname.replace(/^\/storage\/v1/, '').split('/').map(decodeURIComponent).join('/');
    } catch {
      return errorResponse(ERRORS.invalidRequest('Invalid path encoding'));
    }
    try {
      const caller = await callerOf(request, ctx, tokenOptional(request.method, path));
      const req: StorageRequest = { request, url, path, caller };
      const response = path.startsWith('/bucket') ? await bucketRoutes(ctx, req) : path.startsWith('/object/') ? await objectRoutes(ctx, req) : null;
      return response ?? errorResponse(ERRORS.notFoundRoute(request.method, url.pathname));
    } catch (error) {
      if (error instanceof StorageError) return errorResponse(error, error.statusCode === 404 ? { 'Cache-Control': 'no-store' } : {});
      if (isPgError(error)) return errorResponse(fromPgError(error));
      if (!options.quiet) console.error('storage: unexpected error', error);
      return errorResponse(ERRORS.internal());
    }
  }
}
