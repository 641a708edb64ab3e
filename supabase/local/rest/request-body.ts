// The body of a request, read before planning: JSON for tables and most
// calls, or raw text/xml/bytes for a function of one unnamed parameter.
import type { BodyKind } from './rpc.ts';
import { invalidBody } from './write.ts';

/** Raw bodies PostgREST hands to a function of one unnamed text, xml or bytea parameter. */
function rawBodyKind(contentType: string | null): BodyKind | null {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'text/plain') return 'text';
  if (type === 'text/xml') return 'xml';
  if (type === 'application/octet-stream') return 'binary';
  return null;
}

export async function readBody(request: Request, rpc: boolean): Promise<{ body: unknown; rawBody: string; bodyKind: BodyKind }> {
  if (request.method !== 'POST' && request.method !== 'PATCH') return { body: undefined, rawBody: '', bodyKind: 'json' };
  const raw = rpc && request.method === 'POST' ? rawBodyKind(request.headers.get('content-type')) : null;
  if (raw === 'binary') return { body: undefined, rawBody: `\\x${Buffer.from(await request.arrayBuffer()).toString('hex')}`, bodyKind: raw };
  if (raw) return { body: undefined, rawBody: await request.text(), bodyKind: raw };
  const bodyKind = 'json';
  const rawBody = await request.text();
  if (rawBody.trim() === '') return { body: undefined, rawBody, bodyKind };
  try {
    return { body: JSON.parse(rawBody), rawBody, bodyKind };
  } catch {
    throw invalidBody();
  }
}

