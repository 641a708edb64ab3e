// What PostgREST calls the schema cache: the tables, columns, keys, foreign
// keys and functions of one exposed schema (public, or another one listed in
// supabase/config.toml and chosen by Accept-Profile/Content-Profile), read
// from pg_catalog; one cache per schema.
// Every identifier a request names is checked against it before it is quoted
// into SQL. It is reloaded when a name is not found (a table created since,
// e.g. by a migration or a test's fixture) and when Postgres reports one missing.
import type { Queryable } from '../db.ts';

export interface Column {
  name: string;
  /** format_type(), e.g. `integer`, `text[]`, `character varying(255)` */
  type: string;
  notNull: boolean;
  hasDefault: boolean;
}

export interface Relation {
  schema: string;
  name: string;
  kind: 'table' | 'view';
  columns: Map<string, Column>;
  primaryKey: string[];
  /** Primary key and every unique constraint or plain unique index. */
  uniqueKeys: string[][];
  /** Computed fields: functions taking this relation's row, used like columns. */
  computed: Map<string, DbFunction>;
}

export interface ForeignKey {
  name: string;
  table: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
}

export interface FunctionArg {
  /** '' for an unnamed parameter. */
  name: string;
  type: string;
  hasDefault: boolean;
  variadic: boolean;
}

export interface DbFunction {
  name: string;
  args: FunctionArg[];
  returnsSet: boolean;
  returnType: string;
  /** scalar: a base/domain/enum value; composite: a table's row or OUT/TABLE columns; void. */
  returnKind: 'scalar' | 'composite' | 'void';
  /** The table whose rows are returned (setof books), for embedding and columns. */
  returnRelation: string | null;
  /** Columns of a `returns table (...)` / OUT-parameter function. */
  returnColumns: Column[] | null;
  volatility: 'i' | 's' | 'v';
  /** The table of this schema whose row the only parameter takes (a computed field or relationship). */
  rowArgOf: string | null;
}

export interface SchemaCache {
  schema: string;
  relations: Map<string, Relation>;
  foreignKeys: ForeignKey[];
  functions: Map<string, DbFunction[]>;
  /** Functions taking a table's row and returning rows of a table: embeddable from that table. */
  computedRelationships: Map<string, DbFunction[]>;
  /** `alter role authenticator set pgrst.db_aggregates_enabled = 'true'`, as on hosted Supabase. */
  aggregatesEnabled: boolean;
  /** statement_timeout set on each API role (`alter role anon set ...`), applied per request as PostgREST does. */
  statementTimeouts: Map<string, string>;
}

// A database's own setting wins over the role's cluster-wide one.
const ROLE_TIMEOUTS_SQL = `
select r.rolname as role, split_part(c.setting, '=', 2) as timeout
from pg_db_role_setting s
join pg_roles r on r.oid = s.setrole
cross join lateral unnest(s.setconfig) as c(setting)
where c.setting like 'statement_timeout=%'
  and s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
order by s.setdatabase`;

// PostgREST's in-database configuration: settings on its login role.
const AGGREGATES_SQL = `
select c.setting
from pg_db_role_setting s
join pg_roles r on r.oid = s.setrole and r.rolname = 'authenticator'
cross join lateral unnest(s.setconfig) as c(setting)
where c.setting like 'pgrst.db_aggregates_enabled=%'
  and s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
order by s.setdatabase`;

const RELATIONS_SQL = `
select c.relname as name, c.relkind as kind,
  coalesce((
    select json_agg(json_build_object(
      'name', a.attname,
      'type', format_type(a.atttypid, a.atttypmod),
      'notNull', a.attnotnull,
      'hasDefault', a.atthasdef or a.attidentity <> '' or a.attgenerated <> ''
    ) order by a.attnum)
    from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  ), '[]'::json) as columns
from pg_class c join pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'p', 'f')`;

const CONSTRAINTS_SQL = `
select con.conname as name, con.contype as type, cl.relname as "table",
  (select json_agg(a.attname order by k.i) from unnest(con.conkey) with ordinality k(n, i)
     join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n) as columns,
  fcl.relname as "refTable", fns.nspname as "refSchema",
  (select json_agg(a.attname order by k.i) from unnest(con.confkey) with ordinality k(n, i)
     join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n) as "refColumns"
from pg_constraint con
join pg_class cl on cl.oid = con.conrelid
join pg_namespace ns on ns.oid = cl.relnamespace
left join pg_class fcl on fcl.oid = con.confrelid
left join pg_namespace fns on fns.oid = fcl.relnamespace
where ns.nspname = $1 and con.contype in ('p', 'u', 'f')
union all
select ic.relname, 'i', cl.relname,
  (select json_agg(a.attname order by k.i) from unnest(i.indkey::int2[]) with ordinality k(n, i)
     join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.n),
  null, null, null
from pg_index i
join pg_class cl on cl.oid = i.indrelid
join pg_class ic on ic.oid = i.indexrelid
join pg_namespace ns on ns.oid = cl.relnamespace
where ns.nspname = $1 and i.indisunique and i.indpred is null and i.indexprs is null`;

const FUNCTIONS_SQL = `
select p.proname as name, p.proretset as "returnsSet", p.provolatile as volatility,
  format_type(p.prorettype, null) as "returnType", t.typtype as "returnTyptype",
  rc.relname as "returnRelation", rns.nspname as "returnRelationSchema",
  p.pronargdefaults as "nDefaults",
  (select ac.relname from pg_type at join pg_class ac on ac.oid = at.typrelid
     where p.pronargs = 1 and at.oid = p.proargtypes[0] and ac.relnamespace = n.oid) as "rowArgOf",
  coalesce((
    select json_agg(json_build_object(
      'name', coalesce(p.proargnames[i], ''),
      'type', format_type(coalesce(p.proallargtypes[i], p.proargtypes[i - 1]), null),
      'mode', coalesce(p.proargmodes[i]::text, 'i')
    ) order by i)
    from generate_series(1, coalesce(array_length(p.proallargtypes, 1), p.pronargs)) i
  ), '[]'::json) as args
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
join pg_type t on t.oid = p.prorettype
left join pg_class rc on rc.oid = t.typrelid and t.typtype = 'c'
left join pg_namespace rns on rns.oid = rc.relnamespace
where n.nspname = $1 and p.prokind = 'f' and p.prorettype <> 'trigger'::regtype`;

// The tables each view reads (through its rewrite rule), for keys through views.
const VIEW_BASES_SQL = `
select v.relname as view, t.relname as base
from pg_class v
join pg_namespace n on n.oid = v.relnamespace
join pg_rewrite r on r.ev_class = v.oid
join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid
  and d.refclassid = 'pg_class'::regclass and d.refobjid <> v.oid
join pg_class t on t.oid = d.refobjid and t.relnamespace = n.oid and t.relkind in ('r', 'p')
where n.nspname = $1 and v.relkind in ('v', 'm')
group by v.relname, t.relname`;

interface ConstraintRow {
  name: string;
  type: 'p' | 'u' | 'f' | 'i';
  table: string;
  columns: string[] | null;
  refTable: string | null;
  refSchema: string | null;
  refColumns: string[] | null;
}

interface FunctionRow {
  name: string;
  returnsSet: boolean;
  volatility: 'i' | 's' | 'v';
  returnType: string;
  returnTyptype: string;
  returnRelation: string | null;
  returnRelationSchema: string | null;
  nDefaults: number;
  rowArgOf: string | null;
  args: { name: string; type: string; mode: string }[];
}

const asJson = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

export async function loadSchemaCache(db: Queryable, schema: string): Promise<SchemaCache> {
  const [relationRows, constraintRows, functionRows, timeoutRows, aggregateRows, viewRows] = await Promise.all([
    db.query<{ name: string; kind: string; columns: unknown }>(RELATIONS_SQL, [schema]),
    db.query<ConstraintRow>(CONSTRAINTS_SQL, [schema]),
    db.query<FunctionRow>(FUNCTIONS_SQL, [schema]),
    db.query<{ role: string; timeout: string }>(ROLE_TIMEOUTS_SQL),
    db.query<{ setting: string }>(AGGREGATES_SQL),
    db.query<{ view: string; base: string }>(VIEW_BASES_SQL, [schema]),
  ]);
  const aggregatesEnabled = aggregateRows.rows.length > 0 && /=\s*(true|on|1)\s*$/i.test(aggregateRows.rows[0].setting);
  const statementTimeouts = new Map(timeoutRows.rows.map((row) => [row.role, row.timeout]));

  const relations = new Map<string, Relation>();
  for (const row of relationRows.rows) {
    const columns = new Map(asJson<Column[]>(row.columns).map((c) => [c.name, c]));
    relations.set(row.name, {
      schema,
      name: row.name,
      kind: row.kind === 'r' || row.kind === 'p' ? 'table' : 'view',
      columns,
      primaryKey: [],
      uniqueKeys: [],
      computed: new Map(),
    });
  }

  const foreignKeys: ForeignKey[] = [];
  for (const row of constraintRows.rows) {
    const relation = relations.get(row.table);
    const columns = asJson<string[] | null>(row.columns);
    if (!relation || !columns) continue;
    if (row.type === 'p') relation.primaryKey = columns;
    if (row.type === 'p' || row.type === 'u' || row.type === 'i') relation.uniqueKeys.push(columns);
    if (row.type === 'f' && row.refSchema === schema && row.refTable) {
      foreignKeys.push({ name: row.name, table: row.table, columns, refTable: row.refTable, refColumns: asJson<string[]>(row.refColumns) });
    }
  }

  foreignKeys.push(...keysThroughViews(relations, foreignKeys, viewRows.rows));

  const functions = new Map<string, DbFunction[]>();
  const computedRelationships = new Map<string, DbFunction[]>();
  for (const row of functionRows.rows) {
    const fn = toFunction(row, relations, schema);
    if (!fn) continue;
    functions.set(fn.name, [...(functions.get(fn.name) ?? []), fn]);
    const owner = fn.rowArgOf ? relations.get(fn.rowArgOf) : undefined;
    if (!owner) continue;
    if (fn.returnRelation) computedRelationships.set(owner.name, [...(computedRelationships.get(owner.name) ?? []), fn]);
    else if (fn.returnKind === 'scalar' && !fn.returnsSet && !owner.columns.has(fn.name)) owner.computed.set(fn.name, fn);
  }
  return { schema, relations, foreignKeys, functions, computedRelationships, aggregatesEnabled, statementTimeouts };
}

/**
 * A view over one table keeps that table's keys on the columns it shows under
 * the same names, as PostgREST finds relationships through views (which also
 * follows renamed columns and views of views: not done here).
 */
function keysThroughViews(relations: Map<string, Relation>, keys: ForeignKey[], rows: { view: string; base: string }[]): ForeignKey[] {
  const bases = new Map<string, string[]>();
  for (const row of rows) bases.set(row.view, [...(bases.get(row.view) ?? []), row.base]);
  const copies: ForeignKey[] = [];
  for (const [viewName, [baseName, ...others]] of bases) {
    const view = relations.get(viewName);
    const base = relations.get(baseName);
    if (!view || !base || others.length > 0) continue;
    const shows = (columns: string[]) => columns.every((c) => view.columns.has(c));
    if (base.primaryKey.length > 0 && shows(base.primaryKey)) view.primaryKey = base.primaryKey;
    view.uniqueKeys = base.uniqueKeys.filter(shows);
    for (const fk of keys) {
      if (fk.table === baseName && fk.refTable !== baseName && shows(fk.columns)) copies.push({ ...fk, table: viewName });
      if (fk.refTable === baseName && fk.table !== baseName && shows(fk.refColumns)) copies.push({ ...fk, refTable: viewName });
    }
  }
  return copies;
}

function toFunction(row: FunctionRow, relations: Map<string, Relation>, schema: string): DbFunction | null {
  const all = asJson<FunctionRow['args']>(row.args);
  const inputs = all.filter((a) => a.mode === 'i' || a.mode === 'b' || a.mode === 'v');
  const outputs = all.filter((a) => a.mode === 'o' || a.mode === 'b' || a.mode === 't');
  const firstDefault = inputs.length - row.nDefaults;
  const args = inputs.map((a, i) => ({ name: a.name, type: a.type, hasDefault: i >= firstDefault, variadic: a.mode === 'v' }));

  let returnKind: DbFunction['returnKind'] = 'scalar';
  let returnRelation: string | null = null;
  let returnColumns: Column[] | null = null;
  if (row.returnType === 'void') returnKind = 'void';
  else if (row.returnTyptype === 'c') {
    if (row.returnRelationSchema !== schema || !row.returnRelation || !relations.has(row.returnRelation)) return null;
    returnKind = 'composite';
    returnRelation = row.returnRelation;
  } else if (row.returnType === 'record') {
    if (outputs.length === 0) return null; // an anonymous record: PostgREST cannot describe it either
    returnKind = 'composite';
    returnColumns = outputs.map((o) => ({ name: o.name, type: o.type, notNull: false, hasDefault: false }));
  } else if (row.returnTyptype === 'p') return null; // other pseudo-types (internal, any...)
  return { name: row.name, args, returnsSet: row.returnsSet, returnType: row.returnType, returnKind, returnRelation, returnColumns, volatility: row.volatility, rowArgOf: row.rowArgOf };
}

/** One cache per database and schema, shared by every request; concurrent reloads are merged. */
export class SchemaCacheHolder {
  private readonly db: Queryable;
  private readonly current = new Map<string, Promise<SchemaCache>>();

  constructor(db: Queryable) {
    this.db = db;
  }

  get(schema = 'public'): Promise<SchemaCache> {
    let cache = this.current.get(schema);
    if (!cache) {
      cache = loadSchemaCache(this.db, schema);
      this.current.set(schema, cache);
      cache.catch(() => this.current.delete(schema));
    }
    return cache;
  }

  /** Forgets the caches; the next request reads the catalogue again. */
  invalidate(): void {
    this.current.clear();
  }
}
