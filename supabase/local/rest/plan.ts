// Turns one request into one SQL statement (a plan). Reads and
// representations share one shape: `total, page_total, body`, where body is
// the JSON text Postgres built.
import { RestError } from './errors.ts';
import { parseSelect } from './parse-select.ts';
import type { AcceptedFormat, Preferences } from './prefer.ts';
import { argumentKeys, type BodyKind, chooseFunction, renderCall } from './rpc.ts';
import type { Relation, SchemaCache } from './schema-cache.ts';
import { groupSql, orderSql, pagingSql, selectList, whereSql } from './render.ts';
import { Aliases, Params, qualified, quoteIdent } from './sql.ts';
import { applyQuery, buildNode, type Node } from './tree.ts';
import { deleteSql, insertSql, invalidBody, updateSql } from './write.ts';

export interface Plan {
  /** null: nothing to run (an empty insert). */
  statement: string | null;
  params: string[];
  readOnly: boolean;
  /** rows: total/page_total/body; counted: page_total only, no body; affected: a bare mutation; scalar: body only; void: nothing. */
  shape: 'rows' | 'counted' | 'affected' | 'scalar' | 'void';
  /** Exactly one row must come back (vnd.pgrst.object+json). */
  single: boolean;
  /** A function returning one composite: answer with the object itself. */
  unwrap: boolean;
  status: number;
  offset: number;
  /** count=planned/estimated: an EXPLAIN whose row estimate is the total (PostgREST's planned count). */
  estimate: { sql: string; params: string[] } | null;
  /** Prefer: handling=strict, max-affected=n on an update, delete or set-returning call. */
  maxAffected: number | null;
  /** An upsert that merges: the body carries how many rows were new (200 when none, else 201). */
  countsInserted: boolean;
}

export interface RequestParts {
  method: string;
  target: { kind: 'table' | 'rpc'; name: string };
  query: [string, string][];
  body: unknown;
  /** The body as sent; for a binary body, its bytes as bytea hex (`\\x...`). */
  rawBody: string;
  /** JSON, or a raw text/xml/binary body (for a function of one unnamed parameter). */
  bodyKind: BodyKind;
  prefs: Preferences;
  accept: AcceptedFormat;
  range: { offset: number; limit: number | null } | null;
}

const ROWS = '"_pgrst_rows"';
const MUTATION = '"_pgrst_mutation"';
const WRITTEN = '"_pgrst_written"';
const SOURCE = '"_pgrst_source"';

export const tableNotFound = (schema: string, name: string) =>
  new RestError(404, 'PGRST205', `Could not find the table '${schema}.${name}' in the schema cache`, { schemaMiss: true });

function rowsStatement(inner: string, total: string, accept: AcceptedFormat, withBody: boolean, first = false): string {
  let body = `json_agg(${ROWS})`;
  if (accept.stripNulls) body = `json_strip_nulls(${body})`;
  body = first || accept.single ? `coalesce((${body} -> 0)::text, 'null')` : `coalesce(${body}::text, '[]')`;
  return `select ${total}::int as total, count(*)::int as page_total, ${withBody ? body : 'null'} as body from (${inner}) as ${ROWS}`;
}

function param(query: [string, string][], name: string): string | null {
  return query.find(([k]) => k === name)?.[1] ?? null;
}

const NO_EXTRAS = { estimate: null, maxAffected: null, countsInserted: false } as const;

function estimateFor(req: RequestParts, rows: string, params: Params): Plan['estimate'] {
  if (req.prefs.count !== 'planned' && req.prefs.count !== 'estimated') return null;
  return { sql: `explain (format json) ${rows}`, params: [...params.values] };
}

/** PostgREST enforces max-affected only with handling=strict. */
const maxAffected = (prefs: Preferences) => (prefs.handling === 'strict' ? prefs.maxAffected : null);

function applyRange(root: Node, range: RequestParts['range']): void {
  if (!range) return;
  root.offset = root.offset || range.offset;
  if (range.limit !== null) root.limit = root.limit === null ? range.limit : Math.min(root.limit, range.limit);
}

export function planRequest(cache: SchemaCache, req: RequestParts): Plan {
  if (req.target.kind === 'rpc') return planRpc(cache, req);
  const relation = cache.relations.get(req.target.name);
  if (!relation) throw tableNotFound(cache.schema, req.target.name);
  if (req.method === 'GET' || req.method === 'HEAD') return planRead(cache, relation, req);
  return planWrite(cache, relation, req);
}

function planRead(cache: SchemaCache, relation: Relation, req: RequestParts): Plan {
  const params = new Params();
  const root = buildNode(cache, relation, parseSelect(param(req.query, 'select') ?? '*'), new Aliases());
  applyQuery(root, req.query);
  applyRange(root, req.range);
  const from = `${qualified(relation.schema, relation.name)} as ${root.alias}`;
  const where = whereSql(root, params);
  // Taken before the select list adds its own parameters: the EXPLAIN uses only the conditions'.
  const estimate = estimateFor(req, `select 1 from ${from} where ${where}`, params);
  const inner = `select ${selectList(root, params)} from ${from} where ${where}${groupSql(root, params)}${orderSql(root, params)}${pagingSql(root)}`;
  const total = req.prefs.count && req.prefs.count !== 'planned' ? `(select count(*) from ${from} where ${where})` : 'null';
  return {
    ...NO_EXTRAS,
    estimate,
    statement: rowsStatement(inner, total, req.accept, req.method === 'GET'),
    params: params.values,
    readOnly: true,
    shape: 'rows',
    single: req.accept.single,
    unwrap: false,
    status: 200,
    offset: root.offset,
  };
}

function planWrite(cache: SchemaCache, relation: Relation, req: RequestParts): Plan {
  const params = new Params();
  const root = buildNode(cache, relation, parseSelect(param(req.query, 'select') ?? '*'), new Aliases());
  applyQuery(root, req.query);
  let statement: string | null;
  let status = 200;
  if (req.method === 'POST') {
    status = 201;
    statement = insertSql(
      {
        relation,
        alias: root.alias,
        body: req.body,
        rawBody: req.rawBody,
        columnsParam: param(req.query, 'columns'),
        onConflict: param(req.query, 'on_conflict'),
        resolution: req.prefs.resolution,
        missingDefault: req.prefs.missing === 'default',
      },
      params,
    );
  } else if (req.method === 'PATCH' || req.method === 'DELETE') {
    // Supabase runs PostgREST with pg-safeupdate: no accidental whole-table writes.
    if (root.filters.length === 0 && root.presence.length === 0 && !root.embeds.some((e) => e.inner)) {
      const verb = req.method === 'PATCH' ? 'UPDATE' : 'DELETE';
      throw new RestError(400, '21000', `${verb} requires a WHERE clause`);
    }
    const where = whereSql(root, params);
    statement = req.method === 'PATCH' ? updateSql(relation, root.alias, req.body, req.rawBody, where, params) : deleteSql(relation, root.alias, where);
  } else {
    throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${req.method}`);
  }

  const representation = req.prefs.return === 'representation';
  // Whether a merging upsert inserted anything decides its status: xmax is 0 on a row just inserted.
  const countsInserted = req.method === 'POST' && req.prefs.resolution === 'merge-duplicates';
  const limited = req.method === 'POST' ? null : maxAffected(req.prefs);
  if (statement !== null && (representation || countsInserted || limited !== null)) {
    const inner = `select ${selectList(root, params)} from ${MUTATION} as ${root.alias}${orderSql(root, params)}`;
    const flag = `${countsInserted ? `${root.alias}.xmax = 0` : 'false'} as "_pgrst_inserted"`;
    // Only what the response shows is returned, so a column the role may not
    // read (no column grant) does not fail the write; the whole row comes back
    // as one value beside the flag, so that `*` is the table's columns only.
    const columns = representation ? returnedColumns(root) : [];
    const written = columns === null ? `${root.alias} as "_pgrst_row", ${flag}` : [...columns.map((c) => `${root.alias}.${quoteIdent(c)}`), flag].join(', ');
    const mutationColumns = columns === null ? '("_pgrst_row").*' : columns.length > 0 ? columns.map(quoteIdent).join(', ') : '1';
    const mutation = `${MUTATION} as (select ${mutationColumns} from ${WRITTEN})`;
    const inserted = countsInserted ? `(select count(*) from ${WRITTEN} where "_pgrst_inserted")` : 'null';
    const rows = representation ? rowsStatement(inner, 'null', req.accept, true) : `select null::int as total, count(*)::int as page_total, null as body from ${MUTATION}`;
    statement = `with ${WRITTEN} as (${statement} returning ${written}), ${mutation} select *, ${inserted}::int as inserted from (${rows}) as "_pgrst_result"`;
  }
  if (!representation && status === 200) status = 204;
  return {
    ...NO_EXTRAS,
    maxAffected: limited,
    countsInserted,
    statement,
    params: params.values,
    readOnly: false,
    shape: representation ? 'rows' : statement !== null && (countsInserted || limited !== null) ? 'counted' : 'affected',
    single: req.accept.single,
    unwrap: false,
    status,
    offset: 0,
  };
}

function planRpc(cache: SchemaCache, req: RequestParts): Plan {
  const isPost = req.method === 'POST';
  if (!isPost && req.method !== 'GET' && req.method !== 'HEAD') {
    throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${req.method}`);
  }
  let keys: string[];
  let argsJson: string;
  let filterQuery = req.query;
  if (isPost) {
    const body = req.body ?? {};
    keys = req.bodyKind === 'json' && typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : [];
    argsJson = req.bodyKind === 'json' && req.rawBody.trim() === '' ? '{}' : req.rawBody;
  } else {
    keys = argumentKeys(cache, req.target.name, req.query);
    argsJson = JSON.stringify(Object.fromEntries(req.query.filter(([k]) => keys.includes(k))));
    filterQuery = req.query.filter(([k]) => !keys.includes(k));
  }
  const { fn, wholeBody } = chooseFunction(cache, req.target.name, keys, isPost, req.bodyKind);
  if (isPost && !wholeBody && (typeof req.body !== 'object' || Array.isArray(req.body))) throw invalidBody();
  const params = new Params();
  const call = renderCall(cache, fn, wholeBody, argsJson, keys, params);
  const fromArgs = call.argsFrom ? ` from ${call.argsFrom}` : '';
  const base = { ...NO_EXTRAS, params: params.values, readOnly: !isPost, single: false, unwrap: false, status: 200, offset: 0 };
  const limited = maxAffected(req.prefs);
  if (limited !== null && !fn.returnsSet) {
    throw new RestError(400, 'PGRST128', 'Function must return SETOF or TABLE when max-affected preference is used with handling=strict');
  }

  if (fn.returnKind === 'void') return { ...base, statement: `select ${call.call}${fromArgs}`, shape: 'void', status: 204 };
  if (fn.returnKind === 'scalar' && !fn.returnsSet) {
    return { ...base, statement: `select to_json(${call.call})::text as body${fromArgs}`, shape: 'scalar' };
  }
  const lateral = call.argsFrom ? `${call.argsFrom} cross join lateral ` : '';
  if (fn.returnKind === 'scalar') {
    const limit = param(filterQuery, 'limit');
    const offset = param(filterQuery, 'offset');
    const paging = `${limit && /^\d+$/.test(limit) ? ` limit ${limit}` : ''}${offset && /^\d+$/.test(offset) ? ` offset ${offset}` : ''}`;
    const inner = `select "_pgrst_fn"."_pgrst_value" from ${lateral}${call.call} as "_pgrst_fn"("_pgrst_value")${paging}`;
    const statement = `select null::int as total, count(*)::int as page_total, coalesce(json_agg(${ROWS}."_pgrst_value")::text, '[]') as body from (${inner}) as ${ROWS}`;
    return { ...base, statement, shape: 'rows', maxAffected: limited };
  }

  const root = buildNode(cache, call.relation!, parseSelect(param(filterQuery, 'select') ?? '*'), new Aliases());
  applyQuery(root, filterQuery);
  applyRange(root, req.range);
  // Counted exactly, the call's rows are read twice (the count and the page): as in
  // PostgREST, the function is called once, in a CTE both read. A planned count only EXPLAINs it.
  const called = `${lateral}${call.call} as ${root.alias}`;
  const exact = req.prefs.count !== null && req.prefs.count !== 'planned';
  const source = exact ? `with ${SOURCE} as materialized (select ${root.alias}.* from ${called}) ` : '';
  const from = exact ? `${SOURCE} as ${root.alias}` : called;
  const where = whereSql(root, params);
  const estimate = estimateFor(req, `select 1 from ${called} where ${where}`, params);
  const inner = `select ${selectList(root, params)} from ${from} where ${where}${groupSql(root, params)}${orderSql(root, params)}${pagingSql(root)}`;
  const total = exact ? `(select count(*) from ${from} where ${where})` : 'null';
  return {
    ...base,
    estimate,
    maxAffected: limited,
    statement: source + rowsStatement(inner, total, req.accept, req.method !== 'HEAD', !fn.returnsSet),
    shape: 'rows',
    single: req.accept.single && fn.returnsSet,
    unwrap: !fn.returnsSet,
    offset: root.offset,
  };
}

/**
 * What a write returns for its representation. As PostgREST does, only the
 * columns the response reads when they are plain columns, so a column the
 * role may not select (column privileges) does not fail a write that never
 * asked for it; null (the whole row) for `*`, embeds, aggregates and
 * computed fields.
 */
function returnedColumns(root: Node): string[] | null {
  const names = new Set<string>();
  for (const item of root.items) {
    if (item.kind !== 'field' || !item.field || item.aggregate || !root.relation.columns.has(item.field.name)) return null;
    names.add(item.field.name);
  }
  for (const term of root.order) {
    if (term.relation !== null || !root.relation.columns.has(term.field.name)) return null;
    names.add(term.field.name);
  }
  return root.embeds.length === 0 && names.size > 0 ? [...names] : null;
}
