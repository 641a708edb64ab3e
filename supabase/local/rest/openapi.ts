// GET /rest/v1/: a small OpenAPI description (PostgREST serves a full one);
// enough to list what is exposed.
import type { SchemaCache } from './schema-cache.ts';

export function openApiDocument(cache: SchemaCache, origin: string): Record<string, unknown> {
  const paths: Record<string, unknown> = { '/': {} };
  const definitions: Record<string, unknown> = {};
  for (const [name, relation] of cache.relations) {
    paths[`/${name}`] = { get: {}, post: {}, patch: {}, delete: {} };
    definitions[name] = {
      type: 'object',
      properties: Object.fromEntries([...relation.columns.values()].map((c) => [c.name, { format: c.type }])),
    };
  }
  for (const name of cache.functions.keys()) paths[`/rpc/${name}`] = { post: {}, get: {} };
  return { swagger: '2.0', info: { title: 'local PostgREST', version: '12' }, host: new URL(origin).host, basePath: '/rest/v1', paths, definitions };
}
