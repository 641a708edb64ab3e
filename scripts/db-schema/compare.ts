// The catalogue of a database as one line per fact, keyed by the object it is
// about, read straight from pg_catalog (not from catalogue.ts, so a fact the
// schema files' writer forgets still shows as a difference): tables, columns
// (type, default, nullability, identity, generated), constraints, indexes,
// row-level security, policies, functions, triggers, views, sequences, types,
// extensions, schemas, and every grant (table, column, function, schema,
// default privileges). Two databases with the same lines have the same schema.
import type { Db, Queryable } from '../../supabase/local/db.ts';

/** PostgreSQL's own schemas. */
const OWN = `n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg\\_temp%' and n.nspname not like 'pg\\_toast\\_temp%'`;

/** An access list as sorted text (kind: an SQL expression of type "char"), the default written out (so never granted and granted-then-revoked-back compare equal). */
const acl = (column: string, kind: string, owner: string) =>
  `coalesce((select string_agg(pg_get_userbyid(e.grantee) || ':' || lower(e.privilege_type) || case when e.is_grantable then '*' else '' end, ' '
                    order by pg_get_userbyid(e.grantee), e.privilege_type)
               from aclexplode(coalesce(${column}, acldefault(${kind}, ${owner}))) e), 'none')`;

const notMember = (classTable: string, oid: string) =>
  `not exists (select 1 from pg_depend x where x.classid = '${classTable}'::regclass and x.objid = ${oid} and x.deptype = 'e')`;

const FACTS = `
select 'schema ' || n.nspname as object, 'grants ' || ${acl('n.nspacl', `'n'::"char"`, 'n.nspowner')} as fact from pg_namespace n where ${OWN}
union all
select 'extension ' || x.extname, 'in ' || n.nspname || ' version ' || x.extversion from pg_extension x join pg_namespace n on n.oid = x.extnamespace
union all
select 'type ' || n.nspname || '.' || t.typname, t.typtype::text || ' ' || coalesce((select string_agg(e.enumlabel, ',' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid), '')
       || coalesce(' over ' || format_type(t.typbasetype, t.typtypmod), '')
  from pg_type t join pg_namespace n on n.oid = t.typnamespace
 where ${OWN} and t.typtype in ('e', 'd', 'c', 'r') and (t.typrelid = 0 or (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c') and ${notMember('pg_type', 't.oid')}
union all
select 'relation ' || n.nspname || '.' || c.relname, 'kind ' || c.relkind::text || ' rls ' || c.relrowsecurity::text || ' forced ' || c.relforcerowsecurity::text
       || ' options ' || coalesce(array_to_string(c.reloptions, ','), '-') || ' grants ' || ${acl('c.relacl', `(case c.relkind when 'S' then 's' else 'r' end)::"char"`, 'c.relowner')}
  from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${OWN} and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f', 'c') and ${notMember('pg_class', 'c.oid')}
union all
select 'column ' || n.nspname || '.' || c.relname || '.' || a.attname,
       '#' || rank() over (partition by c.oid order by a.attnum) || ' ' || format_type(a.atttypid, a.atttypmod)
       || case when a.attnotnull then ' not null' else ' null' end
       || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') || case when a.attgenerated = 's' then ' (generated)' else '' end
       || case a.attidentity when '' then '' else ' identity ' || a.attidentity::text end
       || coalesce(' collate ' || nullif((select co.collname from pg_collation co where co.oid = a.attcollation), 'default'), '')
       || case when a.attacl is null or a.attacl = '{}' then '' else ' grants ' || ${acl('a.attacl', `'c'::"char"`, 'c.relowner')} end
  from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
  left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
 where ${OWN} and c.relkind in ('r', 'p', 'v', 'm', 'f', 'c') and a.attnum > 0 and not a.attisdropped and ${notMember('pg_class', 'c.oid')}
union all
select 'constraint ' || n.nspname || '.' || coalesce(c.relname, t.typname) || ' ' || k.conname,
       pg_get_constraintdef(k.oid) || case when k.condeferrable then ' deferrable' else '' end || case when k.condeferred then ' deferred' else '' end
  from pg_constraint k join pg_namespace n on n.oid = k.connamespace
  left join pg_class c on c.oid = k.conrelid left join pg_type t on t.oid = k.contypid
 where ${OWN} and (c.oid is null or ${notMember('pg_class', 'c.oid')})
union all
select 'index ' || n.nspname || '.' || i.relname, pg_get_indexdef(i.oid)
  from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class c on c.oid = x.indrelid join pg_namespace n on n.oid = c.relnamespace
 where ${OWN} and ${notMember('pg_class', 'c.oid')}
union all
select 'policy ' || n.nspname || '.' || c.relname || ' ' || p.polname,
       case when p.polpermissive then 'permissive' else 'restrictive' end || ' ' || p.polcmd::text
       || ' to ' || coalesce((select string_agg(case when r = 0 then 'public' else pg_get_userbyid(r) end, ',' order by 1) from unnest(p.polroles) r), '')
       || ' using ' || coalesce(pg_get_expr(p.polqual, p.polrelid), '-') || ' check ' || coalesce(pg_get_expr(p.polwithcheck, p.polrelid), '-')
  from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
union all
select 'trigger ' || n.nspname || '.' || c.relname || ' ' || t.tgname, pg_get_triggerdef(t.oid) || ' enabled ' || t.tgenabled::text
  from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace where not t.tgisinternal
union all
select 'function ' || n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')',
       'definition md5 ' || md5(case when p.prokind in ('a', 'w') then p.prosrc else pg_get_functiondef(p.oid) end)
       || ' owner ' || pg_get_userbyid(p.proowner) || ' grants ' || ${acl('p.proacl', `'f'::"char"`, 'p.proowner')}
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${OWN} and ${notMember('pg_proc', 'p.oid')}
union all
select 'view ' || n.nspname || '.' || c.relname, 'definition md5 ' || md5(pg_get_viewdef(c.oid))
  from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${OWN} and c.relkind in ('v', 'm') and ${notMember('pg_class', 'c.oid')}
union all
select 'sequence ' || n.nspname || '.' || c.relname,
       format_type(s.seqtypid, null) || ' ' || s.seqstart || ' ' || s.seqincrement || ' ' || s.seqmin || ' ' || s.seqmax || ' ' || s.seqcache || ' ' || s.seqcycle::text
       || coalesce(' owned by ' || (select dr.refobjid::regclass::text || '.' || dr.refobjsubid from pg_depend dr
                                     where dr.classid = 'pg_class'::regclass and dr.objid = c.oid and dr.refobjsubid > 0 and dr.deptype in ('a', 'i')), '')
  from pg_sequence s join pg_class c on c.oid = s.seqrelid join pg_namespace n on n.oid = c.relnamespace where ${OWN}
union all
select 'default privileges of ' || pg_get_userbyid(d.defaclrole) || ' in ' || coalesce(n.nspname, 'every schema') || ' on ' || d.defaclobjtype::text,
       (select string_agg(pg_get_userbyid(e.grantee) || ':' || lower(e.privilege_type), ' ' order by pg_get_userbyid(e.grantee), e.privilege_type) from aclexplode(d.defaclacl) e)
  from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace
union all
select 'comment on ' || pg_describe_object(d.classoid, d.objoid, d.objsubid), 'md5 ' || md5(d.description)
  from pg_description d
 where d.objoid >= 16384 and not exists (select 1 from pg_depend x where x.classid = d.classoid and x.objid = d.objoid and x.deptype = 'e')
`;

/** Object → its facts, one string each. */
export async function catalogueFacts(db: Db): Promise<Map<string, string>> {
  return db.transaction(async (tx) => {
    await tx.exec(`set local search_path = ''`);
    const { rows } = await tx.query<{ object: string; fact: string }>(`select object, fact from (${FACTS}) f order by 1, 2`);
    const facts = new Map<string, string>();
    for (const { object, fact } of rows) facts.set(object, facts.has(object) ? `${facts.get(object)} | ${fact}` : fact);
    for (const [object, fact] of await canonicalChecks(tx)) facts.set(object, fact);
    return facts;
  });
}

/** The differences between two catalogues, one line per object, naming it and what each side has. */
export function differences(migrations: Map<string, string>, schemaFiles: Map<string, string>): string[] {
  const lines: string[] = [];
  for (const [object, fact] of migrations) {
    const other = schemaFiles.get(object);
    if (other === undefined) lines.push(`${object}: only the migrations make it (${fact})`);
    else if (other !== fact) lines.push(`${object}: the migrations make ${fact}; the schema files make ${other}`);
  }
  for (const [object, fact] of schemaFiles) if (!migrations.has(object)) lines.push(`${object}: only the schema files make it (${fact})`);
  return lines.sort();
}

/**
 * Each check constraint of a table as PostgreSQL writes it after reading it
 * again: a check that a migration grew with "and ..." is stored as
 * ((a and b) and c), and the same check read from a schema file as
 * (a and b and c). Both are added again to an empty copy of their table (then
 * dropped), so the two databases' checks are compared in one form.
 */
async function canonicalChecks(tx: Queryable): Promise<Map<string, string>> {
  const { rows } = await tx.query<{ object: string; tablename: string; name: string; definition: string; validated: boolean; deferrable: string }>(`
    select 'constraint ' || n.nspname || '.' || c.relname || ' ' || k.conname as object, format('%I.%I', n.nspname, c.relname) as tablename,
           k.conname as name, regexp_replace(pg_get_constraintdef(k.oid), ' NOT VALID$', '') as definition, k.convalidated as validated,
           case when k.condeferrable then ' deferrable' else '' end || case when k.condeferred then ' deferred' else '' end as deferrable
      from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
     where k.contype = 'c' and ${OWN} and ${notMember('pg_class', 'c.oid')}`);
  const facts = new Map<string, string>();
  await tx.exec('savepoint canonical_checks');
  for (const [i, row] of rows.entries()) {
    await tx.exec(`create temporary table canonical_${i} (like ${row.tablename});
      alter table canonical_${i} add constraint ${quoteIdent(row.name)} ${row.definition} not valid`);
    const { rows: again } = await tx.query<{ definition: string }>(
      `select regexp_replace(pg_get_constraintdef(k.oid), ' NOT VALID$', '') as definition from pg_constraint k
        where k.conrelid = 'pg_temp.canonical_${i}'::regclass and k.conname = $1`, [row.name]);
    facts.set(row.object, `${again[0]!.definition}${row.validated ? '' : ' NOT VALID'}${row.deferrable}`);
  }
  await tx.exec('rollback to savepoint canonical_checks');
  return facts;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
