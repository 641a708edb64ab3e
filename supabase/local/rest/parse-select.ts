// The `select` query parameter: columns, aliases, JSON paths, casts and
// embedded resources, e.g. `id,title:name,data->>k,author:authors!inner(name,books(*))`.
// Pure parsing into a tree; names are checked against the catalogue later.
import { parseError } from './errors.ts';

export interface JsonStep {
  arrow: '->' | '->>';
  key: string;
}

export interface FieldRef {
  name: string;
  jsonPath: JsonStep[];
  /** Set when the name is resolved: the call of a computed field (a function taking the row). */
  computed?: string;
}

export const AGGREGATES = ['count', 'sum', 'avg', 'min', 'max'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

export type SelectItem =
  | { kind: 'star' }
  | {
      kind: 'field';
      alias: string | null;
      /** null for a bare `count()`. */
      field: FieldRef | null;
      cast: string | null;
      aggregate: Aggregate | null;
      /** `col.sum()::int`: the cast of the aggregate's result. */
      aggregateCast: string | null;
    }
  | {
      kind: 'embed';
      alias: string | null;
      name: string;
      hint: string | null;
      joinType: 'inner' | 'left' | null;
      items: SelectItem[];
      /** `...rel(cols)`: the columns join the parent's own. */
      spread: boolean;
    };

const NAME_CHAR = /[\p{L}\p{N}_$]/u;

/** A small cursor over one parameter's text, shared by the parsers here. */
export class Cursor {
  readonly text: string;
  pos = 0;
  private readonly what: string;

  constructor(text: string, what: string) {
    this.text = text;
    this.what = what;
  }

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(length = 1): string {
    return this.text.slice(this.pos, this.pos + length);
  }

  eat(token: string): boolean {
    if (this.text.startsWith(token, this.pos)) {
      this.pos += token.length;
      return true;
    }
    return false;
  }

  expect(token: string): void {
    if (!this.eat(token)) this.fail(`expecting "${token}"`);
  }

  fail(expecting: string): never {
    const found = this.done ? 'end of input' : `"${this.peek()}"`;
    throw parseError(`${this.what} (${this.text})`, `unexpected ${found} at position ${this.pos + 1}, ${expecting}`);
  }

  /** An identifier: letters, digits, _ and $, or anything in double quotes. */
  name(): string {
    if (this.eat('"')) {
      let out = '';
      while (!this.done && this.peek() !== '"') {
        if (this.peek() === '\\' && this.pos + 1 < this.text.length) this.pos++;
        out += this.text[this.pos++];
      }
      this.expect('"');
      if (out === '') this.fail('expecting a name');
      return out;
    }
    const start = this.pos;
    while (!this.done && NAME_CHAR.test(this.peek())) this.pos++;
    if (this.pos === start) this.fail('expecting a name');
    return this.text.slice(start, this.pos);
  }

  /** `->key`, `->>key`, `->0` steps after a column name. */
  jsonPath(): JsonStep[] {
    const steps: JsonStep[] = [];
    for (;;) {
      const arrow = this.eat('->>') ? '->>' : this.eat('->') ? '->' : null;
      if (!arrow) return steps;
      const negative = this.eat('-');
      steps.push({ arrow, key: (negative ? '-' : '') + this.name() });
    }
  }

  field(): FieldRef {
    const name = this.name();
    return { name, jsonPath: this.jsonPath() };
  }
}

export function parseSelect(text: string): SelectItem[] {
  const cursor = new Cursor(text, 'select parameter');
  if (text === '') return [{ kind: 'star' }];
  const items = parseItems(cursor);
  if (!cursor.done) cursor.fail('expecting "," or end of input');
  return items;
}

function parseItems(cursor: Cursor): SelectItem[] {
  const items: SelectItem[] = [];
  do {
    items.push(parseItem(cursor));
  } while (cursor.eat(','));
  return items;
}

function parseItem(cursor: Cursor): SelectItem {
  if (cursor.eat('*')) return { kind: 'star' };
  const spread = cursor.eat('...');
  let alias: string | null = null;
  let name = cursor.name();
  if (cursor.peek() === ':' && cursor.peek(2) !== '::') {
    cursor.expect(':');
    alias = name;
    name = cursor.name();
  }
  if (name === 'count' && cursor.peek(2) === '()' && !spread) {
    cursor.pos += 2;
    return { kind: 'field', alias, field: null, cast: null, aggregate: 'count', aggregateCast: castAfter(cursor) };
  }
  if (spread || cursor.peek() === '!' || cursor.peek() === '(') return parseEmbed(cursor, alias, name, spread);
  const field: FieldRef = { name, jsonPath: cursor.jsonPath() };
  const cast = castAfter(cursor);
  const aggregate = aggregateAfter(cursor);
  return { kind: 'field', alias, field, cast, aggregate, aggregateCast: aggregate ? castAfter(cursor) : null };
}

function castAfter(cursor: Cursor): string | null {
  return cursor.eat('::') ? cursor.name() : null;
}

/** `.sum()`, `.avg()`, `.min()`, `.max()`, `.count()` after a column. */
function aggregateAfter(cursor: Cursor): Aggregate | null {
  if (cursor.peek() !== '.') return null;
  cursor.expect('.');
  const name = cursor.name();
  if (!(AGGREGATES as readonly string[]).includes(name)) cursor.fail('expecting an aggregate: count(), sum(), avg(), min() or max()');
  cursor.expect('()');
  return name as Aggregate;
}

function parseEmbed(cursor: Cursor, alias: string | null, name: string, spread: boolean): SelectItem {
  let hint: string | null = null;
  let joinType: 'inner' | 'left' | null = null;
  while (cursor.eat('!')) {
    const word = cursor.name();
    if (word === 'inner' || word === 'left') joinType = word;
    else if (hint === null) hint = word;
    else cursor.fail('expecting one hint');
  }
  cursor.expect('(');
  const items = cursor.peek() === ')' ? [] : parseItems(cursor);
  cursor.expect(')');
  return { kind: 'embed', alias, name, hint, joinType, items, spread };
}
