// Turns one request into one SQL statement (a plan). Reads and
// representations share one shape: `total, page_total, body`, where body is
// the JSON text Postgres built.
import { RestError } from './errors.ts';
import { parseSelect } from './parse-select.ts';
import type { AcceptedFormat, Preferences } from './prefer.ts';
import { argumentKeys, chooseFunction, renderCall } from './rpc.ts';
import type { Relation, SchemaCache } from './schema-cache.ts';
import { orderSql, pagingSql, selectList, whereSql } from './render.ts';
import { Aliases, Params, qualified, quoteIdent } from './sql.ts';
import { applyQuery, buildNode, type Node } from './tree.ts';
import { deleteSql, insertSql, invalidBody, updateSql } from './write.ts';

export interface Plan {
  /** null: nothing to run (an empty insert). */
  statement: string | null;
  params: string[];
  readOnly: boolean;
  /** rows: total/page_total/body; affected: a bare mutation; scalar: body only; void: nothing. */
  shape: 'rows' | 'affected' | 'scalar' | 'void';
  /** Exactly one row must come back (vnd.pgrst.object+json). */
  single: boolean;
  /** A function returning one composite: answer with the object itself. */
  unwrap: boolean;
  status: number;
  offset: number;
}

export interface RequestParts {
  method: string;
  target: { kind: 'table' | 'rpc'; name: string };
  query: [string, string][];
  body: unknown;
  rawBody: string;
  prefs: Preferences;
  accept: AcceptedFormat;
  range: { offset: number; limit: number | null } | null;
}

const ROWS = '"_pgrst_rows"';
const MUTATION = '"_pgrst_mutation"';
const SOURCE = '"_pgrst_source"';

export const tableNotFound = (name: string) =>
  new RestError(404, 'PGRST205', `Could not find the table 'public.${name}' in the schema cache`, { schemaMiss: true });

function rowsStatement(inner: string, total: string, accept: AcceptedFormat, withBody: boolean, first = false): string {
  let body = `json_agg(${ROWS})`;
  if (accept.stripNulls) body = `json_strip_nulls(${body})`;
  body = first || accept.single ? `coalesce((${body} -> 0)::text, 'null')` : `coalesce(${body}::text, '[]')`;
  return `select ${total}::int as total, count(*)::int as page_total, ${withBody ? body : 'null'} as body from (${inner}) as ${ROWS}`;
}

function param(query: [string, string][], name: string): string | null {
  return query.find(([k]) => k === name)?.[1] ?? null;
}

function applyRange(root: Node, range: RequestParts['range']): void {
  if (!range) return;
  root.offset = root.offset || range.offset;
  if (range.limit !== null) root.limit = root.limit === null ? range.limit : Math.min(root.limit, range.limit);
}

export function planRequest(cache: SchemaCache, req: RequestParts): Plan {
  if (req.target.kind === 'rpc') return planRpc(cache, req);
  const relation = cache.relations.get(req.target.name);
  if (!relation) throw tableNotFound(req.target.name);
  if (req.method === 'GET' || req.method === 'HEAD') return planRead(cache, relation, req);
  return planWrite(cache, relation, req);
}

function planRead(cache: SchemaCache, relation: Relation, req: RequestParts): Plan {
  const params = new Params();
  const root = buildNode(cache, relation, parseSelect(param(req.query, 'select') ?? '*'), new Aliases());
  applyQuery(root, req.query);
  applyRange(root, req.range);
  const from = `${qualified(relation.name)} as ${root.alias}`;
  const where = whereSql(root, params);
  const inner = `select ${selectList(root, params)} from ${from} where ${where}${orderSql(root, params)}${pagingSql(root)}`;
  const total = req.prefs.count ? `(select count(*) from ${from} where ${where})` : 'null';
  return {
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
  if (statement !== null && representation) {
    const inner = `select ${selectList(root, params)} from ${MUTATION} as ${root.alias}${orderSql(root, params)}`;
    statement = `with ${MUTATION} as (${statement} returning ${returningList(root)}) ${rowsStatement(inner, 'null', req.accept, true)}`;
  }
  if (!representation && status === 200) status = 204;
  return {
    statement,
    params: params.values,
    readOnly: false,
    shape: representation ? 'rows' : 'affected',
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
    keys = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : [];
    argsJson = req.rawBody.trim() === '' ? '{}' : req.rawBody;
  } else {
    keys = argumentKeys(cache, req.target.name, req.query);
    argsJson = JSON.stringify(Object.fromEntries(req.query.filter(([k]) => keys.includes(k))));
    filterQuery = req.query.filter(([k]) => !keys.includes(k));
  }
  const { fn, wholeBody } = chooseFunction(cache, req.target.name, keys, isPost);
  if (isPost && !wholeBody && (typeof req.body !== 'object' || Array.isArray(req.body))) throw invalidBody();
  const params = new Params();
  const call = renderCall(cache, fn, wholeBody, argsJson, keys, params);
  const fromArgs = call.argsFrom ? ` from ${call.argsFrom}` : '';
  const base = { params: params.values, readOnly: !isPost, single: false, unwrap: false, status: 200, offset: 0 };

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
    return { ...base, statement, shape: 'rows' };
  }

  const root = buildNode(cache, call.relation!, parseSelect(param(filterQuery, 'select') ?? '*'), new Aliases());
  applyQuery(root, filterQuery);
  applyRange(root, req.range);
  // Counted, the call's rows are read twice (the count and the page): as in
  // PostgREST, the function is called once, in a CTE both read.
  const called = `${lateral}${call.call} as ${root.alias}`;
  const source = req.prefs.count ? `with ${SOURCE} as materialized (select ${root.alias}.* from ${called}) ` : '';
  const from = req.prefs.count ? `${SOURCE} as ${root.alias}` : called;
  const where = whereSql(root, params);
  const inner = `select ${selectList(root, params)} from ${from} where ${where}${orderSql(root, params)}${pagingSql(root)}`;
  const total = req.prefs.count ? `(select count(*) from ${from} where ${where})` : 'null';
  return {
    ...base,
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
 * asked for it; with `*` or embeds, the whole row.
 */
function returningList(root: Node): string {
  const plain = root.embeds.length === 0 && root.items.every((item) => item.kind === 'field');
  if (!plain || root.order.some((term) => term.relation !== null)) return `${root.alias}.*`;
  const names = new Set<string>();
  for (const item of root.items) if (item.kind === 'field') names.add(item.field.name);
  for (const term of root.order) names.add(term.field.name);
  return names.size > 0 ? [...names].map((name) => `${root.alias}.${quoteIdent(name)}`).join(', ') : `${root.alias}.*`;
}
