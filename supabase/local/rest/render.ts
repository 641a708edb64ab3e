// Renders a resolved read tree as SQL in PostgREST's way: each embedded
// resource is a correlated subquery that builds its JSON (an object for
// to-one, an array for to-many), `!inner` and `embed=not.is.null` become
// EXISTS conditions on the parent, and Postgres itself formats the JSON.
import { parseError } from './errors.ts';
import type { Condition, FilterNode, OrderTerm } from './parse-filter.ts';
import type { FieldRef } from './parse-select.ts';
import { joinCondition, sourceSql } from './relationships.ts';
import type { Embed, Node } from './tree.ts';
import { orderEmbed } from './tree.ts';
import { type Params, quoteIdent } from './sql.ts';

const CASTS: Record<string, string> = {
  text: 'text', varchar: 'varchar', int: 'integer', int4: 'integer', integer: 'integer', int2: 'smallint',
  smallint: 'smallint', int8: 'bigint', bigint: 'bigint', numeric: 'numeric', float4: 'real', real: 'real',
  float8: 'double precision', bool: 'boolean', boolean: 'boolean', json: 'json', jsonb: 'jsonb', date: 'date',
  timestamp: 'timestamp', timestamptz: 'timestamptz', time: 'time', uuid: 'uuid',
};

const BINARY: Record<string, string> = {
  eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', like: 'like', ilike: 'ilike', match: '~', imatch: '~*',
  cs: '@>', cd: '<@', ov: '&&', // nxr: does not extend to the right of (&<); nxl: to the left of (&>), as PostgREST.
  sl: '<<', sr: '>>', nxr: '&<', nxl: '&>', adj: '-|-', isdistinct: 'is distinct from',
};

const TS_QUERY: Record<string, string> = { fts: 'to_tsquery', plfts: 'plainto_tsquery', phfts: 'phraseto_tsquery', wfts: 'websearch_to_tsquery' };

/** `alias."col"->'a'->>'b'` (or a computed field's call), JSON keys bound as parameters. */
export function fieldSql(alias: string, field: FieldRef, params: Params): string {
  let sql = field.computed ? `${field.computed}(${alias})` : `${alias}.${quoteIdent(field.name)}`;
  for (const step of field.jsonPath) {
    const key = /^-?\d+$/.test(step.key) ? step.key : `${params.add(step.key)}::text`;
    sql = `${sql}${step.arrow}${key}`;
  }
  return sql;
}

function outputKey(field: FieldRef): string {
  return field.jsonPath.at(-1)?.key ?? field.name;
}

function castSql(sql: string, cast: string | null): string {
  if (!cast) return sql;
  const type = CASTS[cast.toLowerCase()];
  if (!type) throw parseError(`select parameter (::${cast})`, `unsupported cast; use one of ${Object.keys(CASTS).join(', ')}`);
  return `(${sql})::${type}`;
}

type FieldItem = Extract<Node['items'][number], { kind: 'field' }>;

function fieldItemSql(node: Node, item: FieldItem, params: Params): string {
  const value = item.field ? castSql(fieldSql(node.alias, item.field, params), item.cast) : '*';
  return item.aggregate ? castSql(`${item.aggregate}(${value})`, item.aggregateCast) : value;
}

/** The columns of a node's rows, each `sql as "key"`. */
function selectParts(node: Node, params: Params): string[] {
  const parts: string[] = [];
  for (const item of node.items) {
    if (item.kind === 'star') parts.push(`${node.alias}.*`);
    else if (item.kind === 'field') {
      // An aggregate is named after itself (`pages.sum()` → "sum"), as in PostgREST.
      const key = item.alias ?? item.aggregate ?? outputKey(item.field!);
      parts.push(`${fieldItemSql(node, item, params)} as ${quoteIdent(key)}`);
    }
  }
  for (const embed of node.embeds) {
    if (embed.hidden) continue;
    if (embed.spread) parts.push(...spreadParts(node, embed, params));
    else parts.push(`${embedSql(node, embed, params)} as ${quoteIdent(embed.key)}`);
  }
  return parts;
}

export function selectList(node: Node, params: Params): string {
  const parts = selectParts(node, params);
  return parts.length > 0 ? parts.join(', ') : 'null as "_pgrst_empty"';
}

/** `...author(name)`: the to-one child's columns, each read from its one row. */
function spreadParts(parent: Node, embed: Embed, params: Params): string[] {
  const from = `from ${sourceSql(embed.relationship, parent.alias)} as ${embed.alias} where ${whereSql(embed, params, parent)}`;
  return selectParts(embed, params).map((part) => {
    if (part === `${embed.alias}.*`) {
      return [...embed.relation.columns.keys()].map((c) => `(select ${embed.alias}.${quoteIdent(c)} ${from} limit 1) as ${quoteIdent(c)}`).join(', ');
    }
    const at = part.lastIndexOf(' as ');
    return `(select ${part.slice(0, at)} ${from} limit 1)${part.slice(at)}`;
  });
}

/** With aggregates, the plain fields group the rows, as in PostgREST. */
export function groupSql(node: Node, params: Params): string {
  if (!node.grouped) return '';
  const keys = node.items.filter((i): i is FieldItem => i.kind === 'field' && !i.aggregate).map((i) => fieldItemSql(node, i, params));
  return keys.length > 0 ? ` group by ${keys.join(', ')}` : '';
}

/** The conditions of a node: its filters, its !inner embeds, presence filters, and (for an embed) the join. */
export function whereSql(node: Node, params: Params, parent?: Node): string {
  const parts: string[] = [];
  if (parent) {
    const embed = node as Embed;
    parts.push(joinCondition(embed.relationship, parent.alias, embed.alias, embed.junctionAlias));
  }
  for (const filter of node.filters) parts.push(filterSql(node.alias, filter, params));
  for (const embed of node.embeds) if (embed.inner) parts.push(existsSql(node, embed, params));
  for (const { embed, present } of node.presence) parts.push(`${present ? '' : 'not '}${existsSql(node, embed, params)}`);
  return parts.length > 0 ? parts.join(' and ') : 'true';
}

function existsSql(parent: Node, embed: Embed, params: Params): string {
  return `exists (select 1 from ${sourceSql(embed.relationship, parent.alias)} as ${embed.alias} where ${whereSql(embed, params, parent)})`;
}

function embedSql(parent: Node, embed: Embed, params: Params): string {
  const rows = `select ${selectList(embed, params)} from ${sourceSql(embed.relationship, parent.alias)} as ${embed.alias} where ${whereSql(embed, params, parent)}${groupSql(embed, params)}`;
  const record = quoteIdent(`${embed.alias.slice(1, -1)}_row`);
  if (embed.relationship.toOne) {
    return `(select row_to_json(${record}) from (${rows} limit 1) as ${record})`;
  }
  return `(select coalesce(json_agg(${record}), '[]') from (${rows}${orderSql(embed, params)}${pagingSql(embed)}) as ${record})`;
}

export function orderSql(node: Node, params: Params): string {
  if (node.order.length === 0) return '';
  const terms = node.order.map((term) => `${orderTarget(node, term, params)}${term.direction ? ` ${term.direction}` : ''}${term.nulls ? ` nulls ${term.nulls}` : ''}`);
  return ` order by ${terms.join(', ')}`;
}

function orderTarget(node: Node, term: OrderTerm, params: Params): string {
  if (term.relation === null) return fieldSql(node.alias, term.field, params);
  const embed = orderEmbed(node, term.relation);
  return `(select ${fieldSql(embed.alias, term.field, params)} from ${sourceSql(embed.relationship, node.alias)} as ${embed.alias} where ${whereSql(embed, params, node)} limit 1)`;
}

export function pagingSql(node: Node): string {
  return `${node.limit !== null ? ` limit ${node.limit}` : ''}${node.offset > 0 ? ` offset ${node.offset}` : ''}`;
}

export function filterSql(alias: string, filter: FilterNode, params: Params): string {
  if (filter.kind === 'logic') {
    const inner = filter.children.map((c) => filterSql(alias, c, params)).join(` ${filter.op} `);
    return `${filter.negate ? 'not ' : ''}(${inner})`;
  }
  const sql = conditionSql(fieldSql(alias, filter.field, params), filter, params);
  return filter.negate ? `not (${sql})` : sql;
}

function conditionSql(target: string, c: Condition, params: Params): string {
  const likeValue = (v: string) => (c.op === 'like' || c.op === 'ilike' ? v.replaceAll('*', '%') : v);
  if (c.op === 'is') {
    const word = (c.value as string).toLowerCase();
    return `${target} is ${word}`;
  }
  if (c.op === 'in') {
    const list = c.value as string[];
    return list.length === 0 ? 'false' : `${target} in (${list.map((v) => params.add(v)).join(', ')})`;
  }
  if (TS_QUERY[c.op]) {
    const config = c.ftsConfig ? `${params.add(c.ftsConfig)}::regconfig, ` : '';
    return `${target} @@ ${TS_QUERY[c.op]}(${config}${params.add(c.value as string)})`;
  }
  const op = BINARY[c.op];
  if (c.quantifier) {
    const list = c.value as string[];
    if (list.length === 0) return c.quantifier === 'any' ? 'false' : 'true';
    const joiner = c.quantifier === 'any' ? ' or ' : ' and ';
    return `(${list.map((v) => `${target} ${op} ${params.add(likeValue(v))}`).join(joiner)})`;
  }
  return `${target} ${op} ${params.add(likeValue(c.value as string))}`;
}
