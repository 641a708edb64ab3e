// The two ways anything from a request reaches SQL: identifiers that were
// checked against the catalogue are quoted, and every value is a bound parameter.

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `"public"."books"` */
export function qualified(schema: string, name: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(name)}`;
}

/** Collects the values of one statement and hands out their `$n` placeholders (all text: Postgres casts them). */
export class Params {
  readonly values: string[] = [];

  add(value: string): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Hands out table aliases that cannot collide with anything a request names. */
export class Aliases {
  private next = 0;

  take(): string {
    return quoteIdent(`_pgrst_${this.next++}`);
  }
}
