// Filters (`col=op.value`, `not.`, `in.(...)`, `(any)`/`(all)` lists, full-text
// configs), logic trees (`or=(a.eq.1,and(b.gt.2,c.is.null))`) and `order`.
import { parseError } from './errors.ts';
import { Cursor, type FieldRef } from './parse-select.ts';

export const OPERATORS = new Set([
  'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'is', 'isdistinct', 'in',
  'cs', 'cd', 'ov', 'sl', 'sr', 'nxl', 'nxr', 'adj', 'fts', 'plfts', 'phfts', 'wfts',
]);
const QUANTIFIABLE = new Set(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch']);
const FTS = new Set(['fts', 'plfts', 'phfts', 'wfts']);

export interface Condition {
  kind: 'condition';
  field: FieldRef;
  negate: boolean;
  op: string;
  quantifier: 'any' | 'all' | null;
  ftsConfig: string | null;
  /** A list for `in` and quantified operators; one string otherwise. */
  value: string | string[];
}

export interface LogicTree {
  kind: 'logic';
  op: 'and' | 'or';
  negate: boolean;
  children: (Condition | LogicTree)[];
}

export type FilterNode = Condition | LogicTree;

/** `[not.]op[(any|all)|(config)].value`, the right side of `col=...`. */
export function parseOperation(field: FieldRef, text: string, whole: string): Condition {
  let rest = text;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const match = /^([a-z]+)(?:\(([a-z_]+)\))?\.(.*)$/s.exec(rest);
  if (!match || !OPERATORS.has(match[1])) {
    throw parseError(`filter (${whole})`, `unknown or malformed operator in "${text}"`);
  }
  const [, op, modifier, raw] = match;
  let quantifier: Condition['quantifier'] = null;
  let ftsConfig: string | null = null;
  if (modifier) {
    if ((modifier === 'any' || modifier === 'all') && QUANTIFIABLE.has(op)) quantifier = modifier;
    else if (FTS.has(op)) ftsConfig = modifier;
    else throw parseError(`filter (${whole})`, `"(${modifier})" cannot modify "${op}"`);
  }
  let value: string | string[] = raw;
  if (op === 'in') value = parseList(raw, '(', ')', whole);
  else if (quantifier) value = parseList(raw, '{', '}', whole);
  else if (op === 'is' && !['null', 'true', 'false', 'unknown'].includes(raw.toLowerCase())) {
    throw parseError(`filter (${whole})`, `is. accepts null, true, false or unknown, not "${raw}"`);
  }
  return { kind: 'condition', field, negate, op, quantifier, ftsConfig, value };
}

/** `(a,"b,c",d)`: items split on commas, double quotes protect, backslash escapes. */
export function parseList(text: string, open: string, close: string, whole: string): string[] {
  if (!text.startsWith(open) || !text.endsWith(close)) {
    throw parseError(`filter (${whole})`, `expecting a list in ${open}${close}`);
  }
  const inner = text.slice(1, -1);
  if (inner === '') return [];
  const items: string[] = [];
  let current = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (quoted) {
      if (c === '\\' && i + 1 < inner.length) current += inner[++i];
      else if (c === '"') quoted = false;
      else current += c;
    } else if (c === '"') {
      quoted = true;
      wasQuoted = true;
    } else if (c === ',') {
      items.push(wasQuoted ? current : current.trim());
      current = '';
      wasQuoted = false;
    } else current += c;
  }
  if (quoted) throw parseError(`filter (${whole})`, 'unterminated quote');
  items.push(wasQuoted ? current : current.trim());
  return items;
}

/** The value of `or=` / `and=` / `not.or=`: a parenthesised list of conditions. */
export function parseLogicTree(op: 'and' | 'or', negate: boolean, text: string, whole: string): LogicTree {
  const cursor = new Cursor(text, `logic tree (${whole})`);
  const tree = parseTreeBody(cursor, op, negate);
  if (!cursor.done) cursor.fail('expecting end of input');
  return tree;
}

function parseTreeBody(cursor: Cursor, op: 'and' | 'or', negate: boolean): LogicTree {
  cursor.expect('(');
  const children: FilterNode[] = [];
  do {
    children.push(parseTreeItem(cursor));
  } while (cursor.eat(','));
  cursor.expect(')');
  return { kind: 'logic', op, negate, children };
}

function parseTreeItem(cursor: Cursor): FilterNode {
  const start = cursor.pos;
  const negate = cursor.eat('not.');
  for (const op of ['and', 'or'] as const) {
    if (cursor.peek(op.length + 1) === `${op}(`) {
      cursor.pos += op.length;
      return parseTreeBody(cursor, op, negate);
    }
  }
  // Outside `not.and(...)` / `not.or(...)` negation follows the field (`a.not.eq.1`),
  // so a leading `not` is a column of that name.
  cursor.pos = start;
  const field = cursor.field();
  cursor.expect('.');
  const operation = readTreeValue(cursor);
  return parseOperation(field, operation, cursor.text);
}

/** Reads `op.value` up to the next top-level `,` or `)`, unquoting a quoted value. */
function readTreeValue(cursor: Cursor): string {
  let out = '';
  let depth = 0;
  while (!cursor.done) {
    const c = cursor.peek();
    if (depth === 0 && (c === ',' || c === ')')) break;
    if (c === '"') {
      // A quoted scalar value (`eq."a,b"`) is unquoted; inside lists the quotes stay for parseList.
      const insideList = depth > 0;
      cursor.pos++;
      let quoted = '';
      while (!cursor.done && cursor.peek() !== '"') {
        if (cursor.peek() === '\\' && cursor.pos + 1 < cursor.text.length) {
          cursor.pos++;
          quoted += insideList ? `\\${cursor.peek()}` : cursor.peek();
        } else quoted += cursor.peek();
        cursor.pos++;
      }
      cursor.expect('"');
      out += insideList ? `"${quoted}"` : quoted;
      continue;
    }
    if (c === '(' || c === '{') depth++;
    if (c === ')' || c === '}') depth--;
    out += c;
    cursor.pos++;
  }
  return out;
}

export interface OrderTerm {
  /** The embedded to-one resource the column belongs to: `author(name).desc`. */
  relation: string | null;
  field: FieldRef;
  direction: 'asc' | 'desc' | null;
  nulls: 'first' | 'last' | null;
}

export function parseOrder(text: string): OrderTerm[] {
  const cursor = new Cursor(text, `order (${text})`);
  const terms: OrderTerm[] = [];
  do {
    let relation: string | null = null;
    let field = cursor.field();
    if (cursor.eat('(')) {
      relation = field.name;
      field = cursor.field();
      cursor.expect(')');
    }
    let direction: OrderTerm['direction'] = null;
    let nulls: OrderTerm['nulls'] = null;
    while (cursor.eat('.')) {
      const word = cursor.name();
      if (word === 'asc' || word === 'desc') direction = word;
      else if (word === 'nullsfirst') nulls = 'first';
      else if (word === 'nullslast') nulls = 'last';
      else cursor.fail('expecting asc, desc, nullsfirst or nullslast');
    }
    terms.push({ relation, field, direction, nulls });
  } while (cursor.eat(','));
  if (!cursor.done) cursor.fail('expecting "," or end of input');
  return terms;
}

/** `"a","b"` or `a,b` (the `columns` and `on_conflict` parameters). */
export function parseNameList(text: string, what: string): string[] {
  const cursor = new Cursor(text, what);
  const names: string[] = [];
  do {
    names.push(cursor.name());
  } while (cursor.eat(','));
  if (!cursor.done) cursor.fail('expecting "," or end of input');
  return names;
}

export function parseNonNegativeInt(text: string, what: string): number {
  if (!/^\d{1,15}$/.test(text)) throw parseError(`${what} (${text})`, 'expecting a non-negative integer');
  return Number(text);
}
