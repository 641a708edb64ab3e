// Several statements in one round trip, on either database: the extended
// protocol's Parse/Bind/Describe/Execute for each, then a single Sync.
//
// Postgres runs everything before a Sync as one implicit transaction (unless
// a transaction block is already open): it commits at the Sync, and after an
// error it skips the remaining statements and rolls back. So a REST request's
// settings and statement cost one round trip instead of begin, settings,
// statement and commit as four. Values go as bound text parameters, as in
// any other query.
//
// Statements are prepared once per connection and reused by their text, as
// PostgREST does (db-prepared-statements): a REST request's settings and its
// statement skip Postgres's parse and plan when the same shape comes again.
// Postgres itself re-plans them after DDL or for another role's policies.
import { type PGlite, parse, protocol } from '@electric-sql/pglite';
import pg from 'pg';
import type { QueryResult } from './db.ts';

export interface BatchStatement {
  sql: string;
  /** Text values bound to $1, $2, …; null is SQL NULL. */
  params?: readonly (string | null)[];
}

/** How many prepared statements a connection keeps; the least recently used go first. */
const MAX_PREPARED = 200;

interface Step {
  statement: BatchStatement;
  name: string;
  /** First use on this connection: Parse before Bind. */
  parse: boolean;
}

/** One connection's prepared statements, by SQL text. */
class PreparedStatements {
  readonly #names = new Map<string, string>();
  /** Names to Close before the next batch (evicted, or of unknown fate after an error). */
  #toClose: string[] = [];
  #next = 0;

  /** What to send for a batch: Closes first, then each statement's Parse (if new) and Bind. */
  plan(statements: readonly BatchStatement[]): { closes: string[]; steps: Step[] } {
    const closes = this.#toClose;
    this.#toClose = [];
    const steps = statements.map((statement) => {
      const known = this.#names.get(statement.sql);
      if (known !== undefined) {
        this.#names.delete(statement.sql); // re-inserted: most recently used last
        this.#names.set(statement.sql, known);
        return { statement, name: known, parse: false };
      }
      const name = `ops_${this.#next++}`;
      this.#names.set(statement.sql, name);
      return { statement, name, parse: true };
    });
    while (this.#names.size > MAX_PREPARED) {
      const [sql, name] = this.#names.entries().next().value!;
      this.#names.delete(sql);
      closes.push(name);
    }
    return { closes, steps };
  }

  /** After a failed batch its new statements may or may not exist: forget and close them. */
  failed(steps: readonly Step[]): void {
    for (const step of steps) {
      if (!step.parse) continue;
      this.#names.delete(step.statement.sql);
      this.#toClose.push(step.name);
    }
  }
}

const preparedByConnection = new WeakMap<object, PreparedStatements>();

function preparedOn(connection: object): PreparedStatements {
  let prepared = preparedByConnection.get(connection);
  if (!prepared) {
    prepared = new PreparedStatements();
    preparedByConnection.set(connection, prepared);
  }
  return prepared;
}

// The messages and hooks node-postgres uses for a query (its "submittable"
// interface, as pg-cursor and pg-query-stream use it).
interface PgConnection {
  stream: { cork?: () => void; uncork?: () => void };
  parse(query: { text: string; name: string; types: number[] }): void;
  bind(config: { statement: string; values: readonly (string | null)[] }): void;
  close(message: { type: 'S'; name: string }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(config: { portal: string; rows: number }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

interface PgFieldMessage {
  fields: { name: string; dataTypeID: number }[];
}

interface PgResult {
  rows: Record<string, unknown>[];
  fields: { name: string; dataTypeID: number }[];
  rowCount: number | null;
  addFields(fields: PgFieldMessage['fields']): void;
  parseRow(values: unknown[]): Record<string, unknown>;
  addRow(row: Record<string, unknown>): void;
  addCommandComplete(message: unknown): void;
}

const PgResultClass = (pg as unknown as { Result: new () => PgResult }).Result;

export class PgBatch {
  readonly #statements: readonly BatchStatement[];
  readonly #results: QueryResult[] = [];
  #current: PgResult = new PgResultClass();
  #settled = false;
  #prepared: PreparedStatements | null = null;
  #steps: Step[] = [];
  readonly promise: Promise<QueryResult[]>;
  #resolve!: (results: QueryResult[]) => void;
  #reject!: (error: unknown) => void;

  constructor(statements: readonly BatchStatement[]) {
    this.#statements = statements;
    this.promise = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  submit(connection: PgConnection): null {
    // Corked, all the messages leave in one write.
    this.#prepared = preparedOn(connection);
    const { closes, steps } = this.#prepared.plan(this.#statements);
    this.#steps = steps;
    connection.stream.cork?.();
    try {
      for (const name of closes) connection.close({ type: 'S', name });
      for (const { statement, name, parse } of steps) {
        if (parse) connection.parse({ text: statement.sql, name, types: [] });
        connection.bind({ statement: name, values: statement.params ?? [] });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '', rows: 0 });
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: PgFieldMessage): void {
    this.#current.addFields(message.fields);
  }

  handleDataRow(message: { fields: unknown[] }): void {
    this.#current.addRow(this.#current.parseRow(message.fields));
  }

  handleCommandComplete(message: unknown): void {
    this.#current.addCommandComplete(message);
    this.#finishStatement();
  }

  handleEmptyQuery(): void {
    this.#finishStatement();
  }

  // node-postgres calls this for an ErrorResponse (Postgres then skips to the
  // Sync, and the client waits for it before its next query) and when the
  // connection dies.
  handleError(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#prepared?.failed(this.#steps);
    this.#reject(error);
  }

  handleReadyForQuery(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve(this.#results);
  }

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: PgConnection): void {
    connection.sendCopyFail('COPY is not supported in a batch');
  }

  handleCopyData(): void {}

  #finishStatement(): void {
    const done = this.#current;
    this.#results.push({
      rows: done.rows,
      fields: done.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
      affectedRows: done.rowCount ?? undefined,
    });
    this.#current = new PgResultClass();
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * The same on PGlite: one call into Postgres with all the messages. `exclusive`
 * is how the caller keeps other queries out meanwhile (PGlite's own locks).
 */
export async function pgliteBatch(
  lite: PGlite,
  statements: readonly BatchStatement[],
  exclusive: <T>(fn: () => Promise<T>) => Promise<T>,
): Promise<QueryResult[]> {
  const { serialize } = protocol;
  const prepared = preparedOn(lite);
  // Planned inside the lock: which statements this connection has prepared
  // depends on every batch that ran before.
  return exclusive(async () => {
    const { closes, steps } = prepared.plan(statements);
    const parts: Uint8Array[] = closes.map((name) => serialize.close({ type: 'S', name }));
    for (const { statement, name, parse } of steps) {
      if (parse) parts.push(serialize.parse({ text: statement.sql, name }));
      parts.push(serialize.bind({ statement: name, values: [...(statement.params ?? [])] }), serialize.describe({ type: 'P' }), serialize.execute({}));
    }
    parts.push(serialize.sync());
    const { messages } = await lite.execProtocol(concat(parts), { throwOnError: false });
    const failure = messages.find((m) => m.name === 'error');
    if (failure) {
      prepared.failed(steps);
      throw failure;
    }
    return parse.parseResults(messages, lite.parsers).map((r) => ({ rows: r.rows as Record<string, unknown>[], fields: r.fields, affectedRows: r.affectedRows }));
  });
}
