// How an embedded resource joins its parent, found from foreign keys the way
// PostgREST does: many-to-one (the parent holds the key), one-to-many (the
// child holds it; one-to-one when those columns are unique), and many-to-many
// through a junction table whose primary key covers keys to both sides.
import { RestError } from './errors.ts';
import type { ForeignKey, Relation, SchemaCache } from './schema-cache.ts';
import { quoteIdent } from './sql.ts';

export interface Relationship {
  kind: 'many-to-one' | 'one-to-many' | 'many-to-many';
  fk: ForeignKey;
  /** For many-to-many: the junction table and its key to the child. */
  junction: { table: string; toChild: ForeignKey } | null;
  toOne: boolean;
  child: Relation;
}

const sameColumns = (a: string[], b: string[]) => a.length === b.length && a.every((c) => b.includes(c));

function isUnique(relation: Relation, columns: string[]): boolean {
  return relation.uniqueKeys.some((key) => sameColumns(key, columns));
}

function candidates(cache: SchemaCache, parent: string, child: Relation): Relationship[] {
  const found: Relationship[] = [];
  for (const fk of cache.foreignKeys) {
    if (fk.table === parent && fk.refTable === child.name) {
      found.push({ kind: 'many-to-one', fk, junction: null, toOne: true, child });
    }
    if (fk.table === child.name && fk.refTable === parent) {
      found.push({ kind: 'one-to-many', fk, junction: null, toOne: isUnique(child, fk.columns), child });
    }
  }
  for (const [name, junction] of cache.relations) {
    if (junction.primaryKey.length === 0) continue;
    const keys = cache.foreignKeys.filter((fk) => fk.table === name && fk.columns.every((c) => junction.primaryKey.includes(c)));
    for (const toParent of keys.filter((fk) => fk.refTable === parent)) {
      for (const toChild of keys.filter((fk) => fk.refTable === child.name && fk !== toParent)) {
        found.push({ kind: 'many-to-many', fk: toParent, junction: { table: name, toChild }, toOne: false, child });
      }
    }
  }
  return found;
}

function matchesHint(rel: Relationship, hint: string): boolean {
  if (rel.fk.name === hint) return true;
  if (rel.junction) return rel.junction.table === hint || rel.junction.toChild.name === hint;
  return rel.fk.columns.includes(hint);
}

function describe(rel: Relationship): string {
  return rel.junction ? `${rel.junction.table} (${rel.kind})` : `${rel.fk.name} (${rel.kind})`;
}

/**
 * Resolves `name` (a table, or a foreign key column/constraint of the parent)
 * with an optional `!hint`, or reports PostgREST's PGRST200/PGRST201.
 */
export function findRelationship(cache: SchemaCache, parent: Relation, name: string, hint: string | null): Relationship {
  let found: Relationship[] = [];
  const child = cache.relations.get(name);
  if (child) found = candidates(cache, parent.name, child);
  else {
    // `author_id(name)` or `books_author_id_fkey(name)`: a key of the parent names the target.
    for (const fk of cache.foreignKeys) {
      const target = cache.relations.get(fk.refTable);
      if (fk.table === parent.name && target && (fk.name === name || (fk.columns.length === 1 && fk.columns[0] === name))) {
        found.push({ kind: 'many-to-one', fk, junction: null, toOne: true, child: target });
      }
    }
  }
  if (hint) found = found.filter((rel) => matchesHint(rel, hint));
  if (found.length === 1) return found[0];
  if (found.length === 0) {
    throw new RestError(400, 'PGRST200', `Could not find a relationship between '${parent.name}' and '${name}' in the schema cache`, {
      details: `Searched for a foreign key relationship between '${parent.name}' and '${name}'${hint ? ` using the hint '${hint}'` : ''} in the schema 'public', but no matches were found.`,
      schemaMiss: true,
    });
  }
  throw new RestError(300, 'PGRST201', `Could not embed because more than one relationship was found for '${parent.name}' and '${name}'`, {
    details: found.map(describe).join(', '),
    hint: `Try changing '${name}' to one of the following: ${found.map((rel) => `'${name}!${rel.junction?.table ?? rel.fk.name}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
  });
}

const col = (alias: string, name: string) => `${alias}.${quoteIdent(name)}`;

/** The SQL condition that ties a child row (childAlias) to its parent row (parentAlias). */
export function joinCondition(rel: Relationship, parentAlias: string, childAlias: string, junctionAlias: string): string {
  const pairs = (left: string, leftCols: string[], right: string, rightCols: string[]) =>
    leftCols.map((c, i) => `${col(left, c)} = ${col(right, rightCols[i])}`).join(' and ');
  if (rel.kind === 'many-to-one') return pairs(childAlias, rel.fk.refColumns, parentAlias, rel.fk.columns);
  if (rel.kind === 'one-to-many') return pairs(childAlias, rel.fk.columns, parentAlias, rel.fk.refColumns);
  const { table, toChild } = rel.junction!;
  return `exists (select 1 from ${quoteIdent('public')}.${quoteIdent(table)} as ${junctionAlias} where ${pairs(
    junctionAlias,
    rel.fk.columns,
    parentAlias,
    rel.fk.refColumns,
  )} and ${pairs(junctionAlias, toChild.columns, childAlias, toChild.refColumns)})`;
}
