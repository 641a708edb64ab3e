// The shape of one read: the root resource and its embedded resources, each
// with its own filters, order and paging from the query string
// (`books.title=eq.x`, `books.order=title`, `books.limit=2`). Every name is
// resolved against the schema cache here, so rendering only quotes.
import { parseError, RestError, unknownColumn } from './errors.ts';
import {
  type FilterNode,
  type OrderTerm,
  parseLogicTree,
  parseNonNegativeInt,
  parseOperation,
  parseOrder,
} from './parse-filter.ts';
import { Cursor, type FieldRef, type SelectItem } from './parse-select.ts';
import { findRelationship, type Relationship } from './relationships.ts';
import type { Relation, SchemaCache } from './schema-cache.ts';
import { type Aliases, qualified } from './sql.ts';

export interface Node {
  relation: Relation;
  alias: string;
  items: SelectItem[];
  embeds: Embed[];
  filters: FilterNode[];
  /** `embed=is.null` / `embed=not.is.null`: keep parents with(out) a matching child. */
  presence: { embed: Embed; present: boolean }[];
  order: OrderTerm[];
  limit: number | null;
  offset: number;
  /** It selects aggregates: its plain fields become the GROUP BY. */
  grouped: boolean;
}

export interface Embed extends Node {
  /** The key in the JSON output (alias, else the name as written). */
  key: string;
  /** Names a filter may use to address it: its alias and its name. */
  names: string[];
  relationship: Relationship;
  inner: boolean;
  /** `books()`: used only to filter the parent, not shown. */
  hidden: boolean;
  /** `...rel(cols)`: its columns are the parent's. */
  spread: boolean;
  junctionAlias: string;
}

const aggregatesNotAllowed = () => new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');

export function buildNode(cache: SchemaCache, relation: Relation, items: SelectItem[], aliases: Aliases): Node {
  const node: Node = { relation, alias: aliases.take(), items, embeds: [], filters: [], presence: [], order: [], limit: null, offset: 0, grouped: false };
  for (const item of items) {
    if (item.kind === 'field') {
      if (item.field) resolveField(relation, item.field);
      if (item.aggregate) {
        // Off on hosted Supabase unless `pgrst.db_aggregates_enabled` is set on the authenticator role.
        if (!cache.aggregatesEnabled) throw aggregatesNotAllowed();
        node.grouped = true;
      }
    }
    if (item.kind !== 'embed') continue;
    const relationship = findRelationship(cache, relation, item.name, item.hint);
    if (item.spread && !relationship.toOne) {
      throw new RestError(400, 'PGRST119', `A spread operation on '${item.name}' is not possible`, {
        details: `'${relation.name}' and '${item.name}' do not form a many-to-one or one-to-one relationship`,
      });
    }
    const child = buildNode(cache, relationship.child, item.items, aliases);
    node.embeds.push({
      ...child,
      key: item.alias ?? item.name,
      names: item.alias ? [item.alias, item.name] : [item.name],
      relationship,
      inner: item.joinType === 'inner',
      hidden: item.items.length === 0,
      spread: item.spread,
      junctionAlias: aliases.take(),
    });
  }
  return node;
}

/** A column, or a computed field (PostgREST calls the function with the row). */
export function resolveField(relation: Relation, field: FieldRef): void {
  if (relation.columns.has(field.name)) return;
  const fn = relation.computed.get(field.name);
  if (!fn) throw unknownColumn(relation.name, field.name);
  field.computed = qualified(relation.schema, fn.name);
}

function findEmbed(node: Node, name: string): Embed | undefined {
  return node.embeds.find((e) => e.names.includes(name));
}

/** Walks `a.b` down the embeds, or reports the unknown one. */
function nodeAt(root: Node, path: string[], key: string): Node {
  let node = root;
  for (const name of path) {
    const next = findEmbed(node, name);
    if (!next) {
      throw new RestError(400, 'PGRST108', `'${name}' is not an embedded resource in this request`, {
        hint: `Verify that '${name}' is included in the 'select' query parameter.`,
        details: `in the query parameter '${key}'`,
      });
    }
    node = next;
  }
  return node;
}

/** Query parameters that are not filters. */
export const RESERVED = new Set(['select', 'order', 'limit', 'offset', 'columns', 'on_conflict']);

/** Distributes filters, order and paging of the query string over the tree. */
export function applyQuery(root: Node, query: [string, string][]): void {
  for (const [key, value] of query) {
    if (key === 'select' || key === 'columns' || key === 'on_conflict') continue;
    const segments = key.split('.');
    const last = segments.pop()!;
    let negateTree = false;
    if ((last === 'or' || last === 'and') && segments.at(-1) === 'not') {
      segments.pop();
      negateTree = true;
    }
    const node = nodeAt(root, segments, key);
    if (last === 'order') node.order = parseOrder(value);
    else if (last === 'limit') node.limit = parseNonNegativeInt(value, 'limit');
    else if (last === 'offset') node.offset = parseNonNegativeInt(value, 'offset');
    else if (last === 'or' || last === 'and') node.filters.push(parseLogicTree(last, negateTree, value, `${key}=${value}`));
    else {
      const embed = findEmbed(node, last);
      if (embed && /^(not\.)?is\.null$/i.test(value)) {
        node.presence.push({ embed, present: value.startsWith('not.') });
        continue;
      }
      const cursor = new Cursor(last, `filter (${key})`);
      const field = cursor.field();
      if (!cursor.done) cursor.fail('expecting end of the column name');
      node.filters.push(parseOperation(field, value, `${key}=${value}`));
    }
  }
  validateNames(root);
}

/** Every column a filter or order names must exist on its resource. */
function validateNames(node: Node): void {
  const visit = (f: FilterNode) => {
    if (f.kind === 'logic') f.children.forEach(visit);
    else resolveField(node.relation, f.field);
  };
  node.filters.forEach(visit);
  for (const term of node.order) {
    if (term.relation === null) resolveField(node.relation, term.field);
    else {
      const embed = findEmbed(node, term.relation);
      if (!embed) throw parseError(`order (${term.relation})`, `'${term.relation}' is not an embedded resource`);
      if (!embed.relationship.toOne) {
        throw new RestError(400, 'PGRST118', `A related order on '${term.relation}' is not possible`, {
          details: `'${node.relation.name}' and '${term.relation}' do not form a many-to-one or one-to-one relationship`,
        });
      }
      resolveField(embed.relation, term.field);
    }
  }
  node.embeds.forEach(validateNames);
}

export function orderEmbed(node: Node, name: string): Embed {
  return findEmbed(node, name)!;
}
