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
}

export type SelectItem =
  | { kind: 'star' }
  | { kind: 'field'; alias: string | null; field: FieldRef; cast: string | null }
  | { kind: 'embed'; alias: string | null; name: string; hint: string | null; joinType: 'inner' | 'left' | null; items: SelectItem[] };

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
  if (cursor.peek(3) === '...') cursor.fail('spread embeds (...) are not supported by the local backend');
  let alias: string | null = null;
  let name = cursor.name();
  if (cursor.peek() === ':' && cursor.peek(2) !== '::') {
    cursor.expect(':');
    alias = name;
    name = cursor.name();
  }
  if (cursor.peek() === '!' || cursor.peek() === '(') return parseEmbed(cursor, alias, name);
  const field: FieldRef = { name, jsonPath: cursor.jsonPath() };
  let cast: string | null = null;
  if (cursor.eat('::')) cast = cursor.name();
  return { kind: 'field', alias, field, cast };
}

function parseEmbed(cursor: Cursor, alias: string | null, name: string): SelectItem {
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
  return { kind: 'embed', alias, name, hint, joinType, items };
}
