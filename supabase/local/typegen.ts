// TypeScript types of the database's `public` schema in the shape
// `supabase gen types typescript` writes (postgres-meta's template: Row, Insert,
// Update and Relationships per table, Functions with Args and Returns, Enums,
// and the Tables/TablesInsert/TablesUpdate helpers), read from the catalogue
// of a migrated database, so the app's Supabase client is typed from the same
// migrations that run on hosted Supabase. Also: the values each
// `check (column in (...))` constraint allows, so TypeScript lists of statuses
// and types can be held to the database's own.
import type { Queryable } from './db.ts';

const SCHEMA = 'public';

interface ColumnRow {
  relation: string;
  kind: string;
  name: string;
  type: string;
  nullable: boolean;
  has_default: boolean;
  identity: string;
  generated: string;
}

interface RelationshipRow {
  relation: string;
  name: string;
  columns: string[];
  referenced_relation: string;
  referenced_columns: string[];
  one_to_one: boolean;
}

interface FunctionRow {
  name: string;
  identity_args: string;
  arg_names: string[] | null;
  arg_types: string[];
  arg_modes: string[] | null;
  n_defaults: number;
  returns_set: boolean;
  return_type: string;
  return_relation: string | null;
}

interface CheckRow {
  relation: string;
  definition: string;
}

const COLUMNS_SQL = `
select c.relname as relation, c.relkind as kind, a.attname as name,
  t.typname as type, not a.attnotnull as nullable, a.atthasdef as has_default,
  a.attidentity as identity, a.attgenerated as generated
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
join pg_type t on t.oid = a.atttypid
where n.nspname = $1 and c.relkind in ('r', 'p', 'f', 'v', 'm')
order by c.relname, a.attname`;

// One-to-one when the referencing columns are themselves unique.
const RELATIONSHIPS_SQL = `
select c.relname as relation, con.conname as name,
  (select array_agg(a.attname order by k.i) from unnest(con.conkey) with ordinality k(n, i)
     join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n) as columns,
  r.relname as referenced_relation,
  (select array_agg(a.attname order by k.i) from unnest(con.confkey) with ordinality k(n, i)
     join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n) as referenced_columns,
  exists (select 1 from pg_constraint u where u.conrelid = con.conrelid and u.contype in ('p', 'u')
          and (select array_agg(x order by x) from unnest(u.conkey) x) = (select array_agg(x order by x) from unnest(con.conkey) x)) as one_to_one
from pg_constraint con
join pg_class c on c.oid = con.conrelid
join pg_namespace n on n.oid = c.relnamespace
join pg_class r on r.oid = con.confrelid
join pg_namespace rn on rn.oid = r.relnamespace
where con.contype = 'f' and n.nspname = $1 and rn.nspname = $1`;

const FUNCTIONS_SQL = `
select p.proname as name, pg_get_function_identity_arguments(p.oid) as identity_args,
  p.proargnames as arg_names,
  (select coalesce(array_agg(t.typname order by k.i), '{}') from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality k(oid, i)
     join pg_type t on t.oid = k.oid) as arg_types,
  p.proargmodes::text[] as arg_modes, p.pronargdefaults as n_defaults,
  p.proretset as returns_set, rt.typname as return_type,
  (select rc.relname from pg_class rc join pg_namespace rcn on rcn.oid = rc.relnamespace
    where rc.oid = rt.typrelid and rcn.nspname = $1) as return_relation
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
join pg_type rt on rt.oid = p.prorettype
where n.nspname = $1 and p.prokind = 'f'
  and rt.typname not in ('trigger', 'event_trigger', 'internal', 'language_handler', 'fdw_handler')
order by p.proname, identity_args`;

const CHECKS_SQL = `
select c.relname as relation, pg_get_constraintdef(con.oid) as definition
from pg_constraint con
join pg_class c on c.oid = con.conrelid
join pg_namespace n on n.oid = c.relnamespace
where con.contype = 'c' and n.nspname = $1
order by c.relname, con.conname`;

const NUMBER_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric']);
const STRING_TYPES = new Set(['bytea', 'bpchar', 'varchar', 'date', 'text', 'citext', 'time', 'timetz', 'timestamp', 'timestamptz', 'uuid', 'vector', 'interval', 'inet', 'name']);

function tsType(pgType: string, tables: Set<string>, views: Set<string>): string {
  if (pgType === 'bool') return 'boolean';
  if (NUMBER_TYPES.has(pgType)) return 'number';
  if (STRING_TYPES.has(pgType)) return 'string';
  if (pgType === 'json' || pgType === 'jsonb') return 'Json';
  if (pgType === 'void') return 'undefined';
  if (pgType === 'record') return 'Record<string, unknown>';
  if (pgType.startsWith('_')) return `(${tsType(pgType.slice(1), tables, views)})[]`;
  if (tables.has(pgType)) return `Database["public"]["Tables"][${JSON.stringify(pgType)}]["Row"]`;
  if (views.has(pgType)) return `Database["public"]["Views"][${JSON.stringify(pgType)}]["Row"]`;
  return 'unknown';
}

// Keys as prettier leaves them in the CLI's output: bare where they are identifiers.
const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
const nullable = (type: string, isNullable: boolean) => (isNullable && type !== 'unknown' ? `${type} | null` : type);
const indent = (lines: string[], depth: number) => lines.map((line) => `${'  '.repeat(depth)}${line}`);

/** `check ((status = ANY (ARRAY['draft'::text, ...])))` → ['status', ['draft', ...]]; null for other checks. */
export function allowedValues(definition: string): [string, string[]] | null {
  const match = /^CHECK \(+(\w+)\)?(?:::text)? = ANY \(+ARRAY\[(.+?)\]\)?(?:::\w+\[\])?\)+$/.exec(definition);
  if (!match) return null;
  const values = [...match[2].matchAll(/'((?:[^']|'')*)'::(?:text|character varying)/g)].map((m) => m[1].replaceAll("''", "'"));
  return values.length > 0 ? [match[1], values] : null;
}

export async function generateDatabaseTypes(db: Queryable): Promise<string> {
  const [columnRows, relationshipRows, functionRows, checkRows] = await Promise.all([
    db.query<ColumnRow>(COLUMNS_SQL, [SCHEMA]),
    db.query<RelationshipRow>(RELATIONSHIPS_SQL, [SCHEMA]),
    db.query<FunctionRow>(FUNCTIONS_SQL, [SCHEMA]),
    db.query<CheckRow>(CHECKS_SQL, [SCHEMA]),
  ]);
  const byRelation = new Map<string, ColumnRow[]>();
  for (const column of columnRows.rows) byRelation.set(column.relation, [...(byRelation.get(column.relation) ?? []), column]);
  const tables = new Set(columnRows.rows.filter((c) => 'rpf'.includes(c.kind)).map((c) => c.relation));
  const views = new Set(columnRows.rows.filter((c) => 'vm'.includes(c.kind)).map((c) => c.relation));
  const type = (pgType: string) => tsType(pgType, tables, views);
  const relationships = (relation: string) =>
    relationshipRows.rows
      .filter((r) => r.relation === relation)
      .sort((a, b) => a.name.localeCompare(b.name) || a.referenced_relation.localeCompare(b.referenced_relation))
      .flatMap((r) => [
        '{',
        `  foreignKeyName: ${JSON.stringify(r.name)}`,
        `  columns: ${JSON.stringify(r.columns)}`,
        `  isOneToOne: ${r.one_to_one}`,
        `  referencedRelation: ${JSON.stringify(r.referenced_relation)}`,
        `  referencedColumns: ${JSON.stringify(r.referenced_columns)}`,
        '},',
      ]);
  const column = (c: ColumnRow, optional: boolean, forceNullable = false) =>
    `${key(c.name)}${optional ? '?' : ''}: ${nullable(type(c.type), forceNullable || c.nullable)}`;

  const tableBlock = (name: string) => {
    const columns = byRelation.get(name)!;
    const writable = (c: ColumnRow, optional: boolean) => (c.identity === 'a' || c.generated === 's' ? `${key(c.name)}?: never` : column(c, optional));
    return [
      `${key(name)}: {`,
      '  Row: {',
      ...indent(columns.map((c) => column(c, false)), 2),
      '  }',
      '  Insert: {',
      ...indent(columns.map((c) => writable(c, c.nullable || c.identity !== '' || c.has_default)), 2),
      '  }',
      '  Update: {',
      ...indent(columns.map((c) => writable(c, true)), 2),
      '  }',
      '  Relationships: [',
      ...indent(relationships(name), 2),
      '  ]',
      '}',
    ];
  };
  const viewBlock = (name: string) => [
    `${key(name)}: {`,
    '  Row: {',
    // A view's columns are nullable for Postgres, whatever the table under it says.
    ...indent(byRelation.get(name)!.map((c) => column(c, false, true)), 2),
    '  }',
    '  Relationships: []',
    '}',
  ];

  const functionSignature = (fn: FunctionRow) => {
    const modes = fn.arg_modes ?? fn.arg_types.map(() => 'i');
    const names = fn.arg_names ?? [];
    const all = fn.arg_types.map((argType, i) => ({ name: names[i] ?? '', type: argType, mode: modes[i] }));
    const inputs = all.filter((a) => a.mode === 'i' || a.mode === 'b' || a.mode === 'v');
    const firstDefault = inputs.length - fn.n_defaults;
    const args = inputs.length === 0 ? 'never' : `{ ${[...inputs].map((a, i) => ({ ...a, optional: i >= firstDefault })).sort((a, b) => a.name.localeCompare(b.name)).map((a) => `${key(a.name)}${a.optional ? '?' : ''}: ${type(a.type)}`).join('; ')} }`;
    const tableColumns = all.filter((a) => a.mode === 't');
    let returns: string;
    // A function returning rows of a table or view names it, as Supabase's
    // generator does, so postgrest-js can type embeds from its result.
    let setof = '';
    if (tableColumns.length > 0) returns = `{ ${[...tableColumns].sort((a, b) => a.name.localeCompare(b.name)).map((a) => `${key(a.name)}: ${type(a.type)}`).join('; ')} }`;
    else if (fn.return_relation && byRelation.has(fn.return_relation)) {
      returns = `{ ${byRelation.get(fn.return_relation)!.map((c) => column(c, false)).join('; ')} }`;
      setof = `; SetofOptions: { from: '*'; to: '${fn.return_relation}'; isOneToOne: ${!fn.returns_set}; isSetofReturn: ${fn.returns_set} }`;
    } else returns = type(fn.return_type);
    return `{ Args: ${args}; Returns: ${returns}${fn.returns_set ? '[]' : ''}${setof} }`;
  };
  const functionsByName = new Map<string, FunctionRow[]>();
  for (const fn of functionRows.rows) functionsByName.set(fn.name, [...(functionsByName.get(fn.name) ?? []), fn]);
  const functionLines = [...functionsByName].flatMap(([name, overloads]) => [`${key(name)}:`, ...indent(overloads.map((fn, i) => `${functionSignature(fn)}${i < overloads.length - 1 ? ' |' : ''}`), 1)]);

  const checked = new Map<string, Map<string, string[]>>();
  for (const check of checkRows.rows) {
    const allowed = allowedValues(check.definition);
    if (!allowed) continue;
    const relationChecks = checked.get(check.relation) ?? new Map<string, string[]>();
    relationChecks.set(allowed[0], allowed[1]);
    checked.set(check.relation, relationChecks);
  }
  const checkLines = [...checked].flatMap(([relation, columns]) => [
    `${key(relation)}: {`,
    ...indent([...columns].sort(([a], [b]) => a.localeCompare(b)).map(([name, values]) => `${key(name)}: ${JSON.stringify(values)},`), 1),
    '},',
  ]);
  const orNever = (lines: string[]) => (lines.length > 0 ? lines : ['[_ in never]: never']);

  return [
    '// Generated by `npm run db:types` from the migrations in supabase/migrations',
    '// (the shape `supabase gen types typescript` writes). Do not edit by hand.',
    '',
    'export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]',
    '',
    'export type Database = {',
    '  __InternalSupabase: {',
    '    PostgrestVersion: "12"',
    '  }',
    '  public: {',
    '    Tables: {',
    ...indent(orNever([...tables].sort().flatMap(tableBlock)), 3),
    '    }',
    '    Views: {',
    ...indent(orNever([...views].sort().flatMap(viewBlock)), 3),
    '    }',
    '    Functions: {',
    ...indent(orNever(functionLines), 3),
    '    }',
    '    Enums: {',
    '      [_ in never]: never',
    '    }',
    '    CompositeTypes: {',
    '      [_ in never]: never',
    '    }',
    '  }',
    '}',
    '',
    HELPER_TYPES,
    '',
    '/** The values each `check (column in (...))` constraint allows, by table and column. */',
    'export const CheckedValues = {',
    ...indent(checkLines, 1),
    '} as const',
    '',
  ].join('\n');
}

const HELPER_TYPES = `type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals["public"]

export type Tables<Name extends keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])> =
  (DefaultSchema["Tables"] & DefaultSchema["Views"])[Name] extends { Row: infer R } ? R : never

export type TablesInsert<Name extends keyof DefaultSchema["Tables"]> =
  DefaultSchema["Tables"][Name] extends { Insert: infer I } ? I : never

export type TablesUpdate<Name extends keyof DefaultSchema["Tables"]> =
  DefaultSchema["Tables"][Name] extends { Update: infer U } ? U : never

export type Functions<Name extends keyof DefaultSchema["Functions"]> = DefaultSchema["Functions"][Name]`;
