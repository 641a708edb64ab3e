// /rest/v1: one request → verify the JWT → plan one SQL statement → run it in
// one transaction as the JWT's role with the request's claims set, so that
// Postgres's own grants and row-level security decide, as under PostgREST.
import type { BackendContext } from '../context.ts';
import type { Db, Queryable } from '../db.ts';
import { errorResponse, fromPgError, isPgError, RestError } from './errors.ts';
import { openApiDocument } from './openapi.ts';
import { type Plan, planRequest, type RequestParts } from './plan.ts';
import { DEFAULT_EXPOSED_SCHEMAS } from './exposed-schemas.ts';
import { parseAccept, parsePrefer, parseRange, profileSchema } from './prefer.ts';
import { requestRole, type RequestRole } from './request-role.ts';
import { type SchemaCache, SchemaCacheHolder } from './schema-cache.ts';
import { countFor, plannedRows } from './counts.ts';
import { readBody } from './request-body.ts';
import { invalidBody } from './write.ts';
import { quoteIdent } from './sql.ts';

// The role switch comes last: the settings before it are made as the connection's own user.
// transaction_read_only = on is `set transaction read only` (GET/HEAD, as PostgREST).
const REQUEST_SETTINGS = `select
  set_config('transaction_read_only', $8, true),
  set_config('search_path', $10, true),
  set_config('TimeZone', 'UTC', true),
  set_config('request.jwt.claims', $1, true),
  set_config('request.jwt.claim.sub', $2, true),
  set_config('request.jwt.claim.role', $3, true),
  set_config('request.jwt.claim.email', $4, true),
  set_config('request.method', $5, true),
  set_config('request.path', $6, true),
  set_config('request.headers', $7, true),
  set_config('statement_timeout', coalesce(nullif($9, ''), current_setting('statement_timeout')), true),
  set_config('role', $3, true)`;

/** Names Postgres reports missing that may mean the schema cache is out of date. */
const STALE_SCHEMA_CODES = new Set(['42P01', '42703', '42883']);

interface Outcome {
  total: number | null;
  pageTotal: number;
  body: string | null;
  /** A merging upsert: how many of its rows were new. */
  inserted: number | null;
}

class Rollback extends Error {
  readonly outcome: Outcome;
  constructor(outcome: Outcome) {
    super('rolled back on request (Prefer: tx=rollback)');
    this.outcome = outcome;
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

export interface RestHandler {
  (request: Request): Promise<Response>;
  /** Forget the schema cache (after migrations or DDL). */
  invalidate(): void;
}

export function createRestHandler(ctx: BackendContext, exposedSchemas: readonly string[] = DEFAULT_EXPOSED_SCHEMAS): RestHandler {
  const schema = new SchemaCacheHolder(ctx.db);
  const handler = async (request: Request): Promise<Response> => {
    let who: RequestRole | null = null;
    try {
      const profile = profileSchema(request, exposedSchemas);
      who = await requestRole(request, ctx);
      const response = await serve(request, ctx.db, { holder: schema, name: profile.schema }, who);
      if (profile.negotiated) response.headers.set('Content-Profile', profile.schema);
      return response;
    } catch (error) {
      if (error instanceof RestError) {
        const headers: Record<string, string> =
          error.status === 401 ? { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${error.message.replaceAll('"', "'")}"` } : {};
        return errorResponse(error, headers);
      }
      if (isPgError(error)) {
        if (STALE_SCHEMA_CODES.has(error.code!)) schema.invalidate();
        return errorResponse(fromPgError(error, who !== null && who.role !== 'anon'));
      }
      if (!ctx.quiet) console.error('rest: unexpected error', error);
      return errorResponse(new RestError(500, 'PGRST000', 'Internal error in the local backend', { details: String((error as Error)?.message ?? error) }));
    }
  };
  return Object.assign(handler, { invalidate: () => schema.invalidate() });
}

/** The schema cache holder and the schema this request addresses. */
interface SchemaChoice {
  holder: SchemaCacheHolder;
  name: string;
}

/** The plan, and the schema cache it was made with (a stale cache is reloaded once). */
async function planWithFreshSchema(schema: SchemaChoice, build: (cache: SchemaCache) => Plan): Promise<{ plan: Plan; cache: SchemaCache }> {
  const attempt = async () => {
    const cache = await schema.holder.get(schema.name);
    return { plan: build(cache), cache };
  };
  try {
    return await attempt();
  } catch (error) {
    if (!(error instanceof RestError) || !error.schemaMiss) throw error;
    schema.holder.invalidate();
    return attempt();
  }
}

function target(pathname: string): RequestParts['target'] | null {
  const segments = pathname.replace(/^\/rest\/v1/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (segments.length === 1) return { kind: 'table', name: segments[0] };
  if (segments.length === 2 && segments[0] === 'rpc') return { kind: 'rpc', name: segments[1] };
  return null;
}

async function serve(request: Request, db: Db, schema: SchemaChoice, who: RequestRole): Promise<Response> {
  const url = new URL(request.url);
  const method = request.method;
  const accept = parseAccept(request.headers.get('accept'));
  const parsedTarget = target(url.pathname);
  if (!parsedTarget) {
    if (url.pathname.replace(/^\/rest\/v1/, '').replaceAll('/', '') === '' && (method === 'GET' || method === 'HEAD')) {
      return new Response(JSON.stringify(openApiDocument(await schema.holder.get(schema.name), url.origin)), { headers: { 'Content-Type': 'application/openapi+json; charset=utf-8' } });
    }
    throw new RestError(404, 'PGRST125', `Invalid path specified in request URL: ${url.pathname}`);
  }
  const { body, rawBody, bodyKind } = await readBody(request, parsedTarget.kind === 'rpc');
  if (parsedTarget.kind === 'table' && (method === 'POST' || method === 'PATCH') && body === undefined) throw invalidBody();
  const parts: RequestParts = {
    method,
    target: parsedTarget,
    query: [...url.searchParams],
    body,
    rawBody,
    bodyKind,
    prefs: parsePrefer(request.headers.get('prefer')),
    accept,
    range: parseRange(request.headers.get('range')),
  };
  const { plan, cache } = await planWithFreshSchema(schema, (fresh) => planRequest(fresh, parts));
  const settings = {
    sql: REQUEST_SETTINGS,
    params: [
      JSON.stringify(who.claims),
      typeof who.claims.sub === 'string' ? who.claims.sub : '',
      who.role,
      typeof who.claims.email === 'string' ? who.claims.email : '',
      method,
      url.pathname.replace(/^\/rest\/v1/, ''),
      headersJson(request.headers),
      plan.readOnly ? 'on' : 'off',
      // PGlite cannot interrupt a statement (no timers in its WebAssembly): there the
      // bulk-insert cap (write.ts) bounds a request; on PostgreSQL this does, as on hosted Supabase.
      cache.statementTimeouts.get(who.role) ?? '',
      // As PostgREST: the request's schema first, then the extra search path.
      schema.name === 'public' ? '"$user", public, extensions' : `${quoteIdent(schema.name)}, public, extensions`,
    ],
  };
  const statements = plan.statement === null ? [settings] : [settings, { sql: plan.statement, params: plan.params }];
  if (plan.statement !== null && plan.estimate) statements.push(plan.estimate);
  const run = async (q: Queryable): Promise<Outcome> => {
    const results = await q.batch(statements);
    const outcome = summarize(plan, plan.statement === null ? null : results[1]);
    if (plan.estimate && results[2]) outcome.total = countFor(parts.prefs.count, outcome.total, plannedRows(results[2].rows));
    if (plan.single && outcome.pageTotal !== 1) {
      throw new RestError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', {
        details: `The result contains ${outcome.pageTotal} rows`,
      });
    }
    if (plan.maxAffected !== null && outcome.pageTotal > plan.maxAffected) {
      throw new RestError(400, 'PGRST124', 'Query result exceeds max-affected preference constraint', {
        details: `The query affects ${outcome.pageTotal} rows`,
      });
    }
    if (parts.prefs.tx === 'rollback') throw new Rollback(outcome);
    return outcome;
  };
  // Settings and statement go in one round trip as a transaction of their own
  // (batch.ts). Only a write that may have to be undone after its result is
  // seen (a single object asked for, or Prefer: tx=rollback) needs an explicit
  // transaction; a read-only one has nothing to undo.
  const decidesAfterwards = !plan.readOnly && (plan.single || plan.maxAffected !== null || parts.prefs.tx === 'rollback');
  let outcome: Outcome;
  try {
    outcome = decidesAfterwards ? await db.transaction(run) : await run(db);
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
    outcome = error.outcome;
  }
  return respond(plan, parts, outcome);
}

function headersJson(headers: Headers): string {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return JSON.stringify(out);
}

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

function summarize(plan: Plan, result: { rows: Record<string, unknown>[]; affectedRows?: number } | null): Outcome {
  const none = { total: null, inserted: null };
  if (!result) return { ...none, pageTotal: 0, body: plan.shape === 'rows' ? '[]' : null };
  if (plan.shape === 'affected') return { ...none, pageTotal: result.affectedRows ?? 0, body: null };
  if (plan.shape === 'void') return { ...none, pageTotal: 0, body: null };
  const row = result.rows[0] ?? {};
  if (plan.shape === 'scalar') return { ...none, pageTotal: 1, body: String(row.body ?? 'null') };
  return {
    total: numberOrNull(row.total),
    pageTotal: Number(row.page_total ?? 0),
    body: row.body === null || row.body === undefined ? null : String(row.body),
    inserted: numberOrNull(row.inserted),
  };
}

function respond(plan: Plan, parts: RequestParts, outcome: Outcome): Response {
  const headers = new Headers();
  // max-affected is applied only where it is enforced (not to inserts), as PostgREST echoes it.
  const applied = parts.prefs.applied.filter((p) => plan.maxAffected !== null || !p.startsWith('max-affected='));
  if (applied.length > 0) headers.set('Preference-Applied', applied.join(', '));
  const counted = parts.prefs.count !== null;
  const total = counted ? (outcome.total ?? outcome.pageTotal) : null;
  const first = plan.offset;
  const last = first + outcome.pageTotal - 1;
  headers.set('Content-Range', `${outcome.pageTotal > 0 ? `${first}-${last}` : '*'}/${total ?? '*'}`);

  let status = plan.status;
  // A merging upsert that only updated rows is not a creation (PostgREST's isInsertIfGTZero).
  if (plan.countsInserted && outcome.inserted !== null && outcome.inserted <= 0) status = 200;
  if (plan.shape === 'void') return new Response(null, { status: 204, headers });
  if (plan.readOnly && total !== null && plan.shape === 'rows') {
    if (first > 0 && first >= total) {
      return errorResponse(
        new RestError(416, 'PGRST103', 'Requested range not satisfiable', { details: `An offset of ${first} was requested, but there are only ${total} rows.` }),
        { 'Content-Range': `*/${total}` },
      );
    }
    if (outcome.pageTotal < total) status = 206;
  }
  const head = parts.method === 'HEAD';
  if (plan.shape === 'affected' || plan.shape === 'counted' || head || status === 204) {
    return new Response(null, { status, headers });
  }
  headers.set('Content-Type', plan.single ? 'application/vnd.pgrst.object+json; charset=utf-8' : JSON_TYPE);
  return new Response(outcome.body ?? (plan.unwrap ? 'null' : '[]'), { status, headers });
}
