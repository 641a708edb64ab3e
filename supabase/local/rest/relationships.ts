// How an embedded resource joins its parent, found the way PostgREST does
// (Plan.hs findRel): every relationship of the parent is listed (many-to-one
// where the parent holds a foreign key, one-to-many where the child does,
// one-to-one when those columns are unique, many-to-many through a junction,
// and computed relationships: functions taking the parent's row), then the
// embed's name and `!hint` pick one. A self-referencing key gives two: the
// table's name means the children, the key column's name the parent.
import { RestError } from './errors.ts';
import type { DbFunction, ForeignKey, Relation, SchemaCache } from './schema-cache.ts';
import { qualified, quoteIdent } from './sql.ts';

export interface Relationship {
  kind: 'many-to-one' | 'one-to-many' | 'one-to-one' | 'many-to-many' | 'computed';
  /** The key; for one-to-one, `parentHolds` says on which side it is. */
  fk: ForeignKey;
  parentHolds: boolean;
  /** For many-to-many: the junction table and its key to the child. */
  junction: { table: string; toChild: ForeignKey } | null;
  /** For a computed relationship: the function called with the parent's row. */
  fn: DbFunction | null;
  toOne: boolean;
  child: Relation;
  parent: string;
}

const sameColumns = (a: string[], b: string[]) => a.length === b.length && a.every((c) => b.includes(c));

function isUnique(relation: Relation, columns: string[]): boolean {
  return relation.uniqueKeys.some((key) => sameColumns(key, columns));
}

/** Every relationship that starts at `parent`. */
function relationshipsOf(cache: SchemaCache, parent: Relation): Relationship[] {
  const found: Relationship[] = [];
  const base = { junction: null, fn: null, parent: parent.name };
  for (const fk of cache.foreignKeys) {
    const target = cache.relations.get(fk.refTable);
    const source = cache.relations.get(fk.table);
    if (fk.table === parent.name && target) {
      const oneToOne = isUnique(parent, fk.columns) && fk.table !== fk.refTable;
      found.push({ ...base, kind: oneToOne ? 'one-to-one' : 'many-to-one', fk, parentHolds: true, toOne: true, child: target });
    }
    if (fk.refTable === parent.name && source) {
      const oneToOne = isUnique(source, fk.columns) && fk.table !== fk.refTable;
      found.push({ ...base, kind: oneToOne ? 'one-to-one' : 'one-to-many', fk, parentHolds: false, toOne: oneToOne, child: source });
    }
  }
  for (const [name, junction] of cache.relations) {
    // Only tables join many-to-many here; a view's copied keys would make those embeds ambiguous.
    if (junction.primaryKey.length === 0 || junction.kind !== 'table') continue;
    const keys = cache.foreignKeys.filter((fk) => fk.table === name && fk.columns.every((c) => junction.primaryKey.includes(c)));
    for (const toParent of keys.filter((fk) => fk.refTable === parent.name)) {
      for (const toChild of keys.filter((fk) => fk !== toParent)) {
        const child = cache.relations.get(toChild.refTable);
        if (!child) continue;
        found.push({ ...base, kind: 'many-to-many', fk: toParent, parentHolds: false, junction: { table: name, toChild }, toOne: false, child });
      }
    }
  }
  for (const fn of cache.computedRelationships.get(parent.name) ?? []) {
    const child = cache.relations.get(fn.returnRelation!);
    if (child) found.push({ ...base, kind: 'computed', fk: null!, parentHolds: false, fn, toOne: !fn.returnsSet, child });
  }
  return found;
}

/** The key's columns on the parent's side and on the child's side, pair by pair. */
function columnPairs(rel: Relationship): { parentColumns: string[]; childColumns: string[] } {
  return rel.parentHolds
    ? { parentColumns: rel.fk.columns, childColumns: rel.fk.refColumns }
    : { parentColumns: rel.fk.refColumns, childColumns: rel.fk.columns };
}

const isSelf = (rel: Relationship) => rel.junction === null && rel.fn === null && rel.fk.table === rel.fk.refTable;
const plainKey = (rel: Relationship) => rel.junction === null && rel.fn === null;
const parentColumn = (rel: Relationship, name: string) => plainKey(rel) && sameColumns(columnPairs(rel).parentColumns, [name]);
const childColumn = (rel: Relationship, name: string) => plainKey(rel) && sameColumns(columnPairs(rel).childColumns, [name]);
const constraint = (rel: Relationship, name: string) => plainKey(rel) && rel.fk.name === name;

function matches(rel: Relationship, target: string, hint: string | null): boolean {
  if (rel.kind === 'computed') return rel.fn!.name === target;
  const named = rel.child.name === target;
  if (isSelf(rel)) {
    // /tree?select=children:tree(*) is the one-to-many, /tree?select=parent_id(*) the many-to-one;
    // /tree?select=children:tree!parent_id(*) the one-to-many by the child's key column.
    if (hint === null) return (named && rel.kind === 'one-to-many') || (parentColumn(rel, target) && rel.kind === 'many-to-one');
    return named && rel.kind === 'one-to-many' && (childColumn(rel, hint) || constraint(rel, hint));
  }
  if (hint === null) {
    const onTable = rel.child.kind === 'table';
    return named || (onTable && (constraint(rel, target) || parentColumn(rel, target)));
  }
  return (
    named &&
    (constraint(rel, hint) || parentColumn(rel, hint) || childColumn(rel, hint) || (rel.junction !== null && rel.junction.table === hint))
  );
}

const list = (columns: string[]) => `(${columns.join(', ')})`;

/** One entry of PGRST201's details, as PostgREST writes it. */
function describe(rel: Relationship): Record<string, string> {
  const embedding = `${rel.parent} with ${rel.child.name}`;
  if (rel.junction) {
    const { table, toChild } = rel.junction;
    return {
      cardinality: 'many-to-many',
      embedding,
      relationship: `${table} using ${rel.fk.name}${list(rel.fk.columns)} and ${toChild.name}${list(toChild.columns)}`,
    };
  }
  const { parentColumns, childColumns } = columnPairs(rel);
  return { cardinality: rel.kind, embedding, relationship: `${rel.fk.name} using ${rel.parent}${list(parentColumns)} and ${rel.child.name}${list(childColumns)}` };
}

/**
 * Resolves `name` (a table or view, a foreign key constraint or column of the
 * parent, or a function taking the parent's row) with an optional `!hint`, or
 * reports PostgREST's PGRST200/PGRST201.
 */
export function findRelationship(cache: SchemaCache, parent: Relation, name: string, hint: string | null): Relationship {
  const found = relationshipsOf(cache, parent).filter((rel) => matches(rel, name, hint));
  if (found.length === 1) return found[0];
  if (found.length === 0) {
    throw new RestError(400, 'PGRST200', `Could not find a relationship between '${parent.name}' and '${name}' in the schema cache`, {
      details: `Searched for a foreign key relationship between '${parent.name}' and '${name}'${hint ? ` using the hint '${hint}'` : ''} in the schema '${cache.schema}', but no matches were found.`,
      schemaMiss: true,
    });
  }
  throw new RestError(300, 'PGRST201', `Could not embed because more than one relationship was found for '${parent.name}' and '${name}'`, {
    details: found.map(describe),
    hint: `Try changing '${name}' to one of the following: ${found.map((rel) => `'${rel.child.name}!${rel.junction?.table ?? rel.fk.name}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
  });
}

const col = (alias: string, name: string) => `${alias}.${quoteIdent(name)}`;

/** What the child's rows are read from: its table, or the computed relationship's call. */
export function sourceSql(rel: Relationship, parentAlias: string): string {
  if (rel.fn) return `${qualified(rel.child.schema, rel.fn.name)}(${parentAlias})`;
  return qualified(rel.child.schema, rel.child.name);
}

/** The SQL condition that ties a child row (childAlias) to its parent row (parentAlias). */
export function joinCondition(rel: Relationship, parentAlias: string, childAlias: string, junctionAlias: string): string {
  const pairs = (left: string, leftCols: string[], right: string, rightCols: string[]) =>
    leftCols.map((c, i) => `${col(left, c)} = ${col(right, rightCols[i])}`).join(' and ');
  if (rel.fn) return 'true';
  if (!rel.junction) {
    const { parentColumns, childColumns } = columnPairs(rel);
    return pairs(childAlias, childColumns, parentAlias, parentColumns);
  }
  const { table, toChild } = rel.junction;
  return `exists (select 1 from ${qualified(rel.child.schema, table)} as ${junctionAlias} where ${pairs(
    junctionAlias,
    rel.fk.columns,
    parentAlias,
    rel.fk.refColumns,
  )} and ${pairs(junctionAlias, toChild.columns, childAlias, toChild.refColumns)})`;
}
