// One interface over the two databases the local backend can run on: PGlite
// (in-process, the default) and a real PostgreSQL server (DATABASE_URL).
import { type Extension, PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { type BatchStatement, PgBatch, pgliteBatch } from './batch.ts';

export interface QueryResult<T = Record<string, unknown>> {
  rows: T[];
  /** Column names in result order. */
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs several statements separated by semicolons, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs statements in order in one round trip (batch.ts). Outside a
   * transaction they form one of their own: all committed, or none.
   */
  batch(statements: readonly BatchStatement[]): Promise<QueryResult[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn inside BEGIN ... COMMIT; rolls back if fn throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// PGlite compiles the WebAssembly of every extension library as it starts
// (pgcrypto's is 3 MB: some 60 ms per start). Told not to, it only writes the
// .so files and compiles one when Postgres first loads it, which is also when
// a real server dlopens a library.
const compileLibrariesOnFirstUse: Extension = {
  name: 'compile-libraries-on-first-use',
  setup: async (_pg, emscriptenOpts) => ({ emscriptenOpts: { ...emscriptenOpts, noWasmDecoding: true } as typeof emscriptenOpts }),
};

/**
 * `options` passes PGlite settings through: a precompiled `pgliteWasmModule`,
 * an `fs` (test databases cloned into memory), `startParams`.
 */
export async function openPglite(dataDir?: string, loadDataDir?: Blob, options: PGliteOptions = {}): Promise<Db> {
  const lite = new PGlite({ ...options, dataDir, loadDataDir, extensions: { pgcrypto, pg_trgm, btree_gin, compileLibrariesOnFirstUse } });
  await lite.waitReady;
  const wrap = (q: { query: PGlite['query']; exec: PGlite['exec'] }, exclusive: <T>(fn: () => Promise<T>) => Promise<T>): Queryable => ({
    async query(sql, params) {
      const r = await q.query(sql, params as unknown[]);
      return { rows: r.rows as never[], fields: r.fields, affectedRows: r.affectedRows };
    },
    async exec(sql) {
      await q.exec(sql);
    },
    batch: (statements) => pgliteBatch(lite, statements, exclusive),
  });
  // Outside a transaction a batch waits for any open one to finish; inside
  // one, its owner already holds that lock and only the query lock is taken.
  const alone = <T>(fn: () => Promise<T>) => lite._runExclusiveTransaction(() => lite._runExclusiveQuery(fn));
  const inTransaction = <T>(fn: () => Promise<T>) => lite._runExclusiveQuery(fn);
  return {
    kind: 'pglite',
    ...wrap(lite, alone),
    // PGlite is one connection: it queues transactions itself, so concurrent
    // requests are serialised rather than interleaved.
    transaction: (fn) => lite.transaction((tx) => fn(wrap(tx as never, inTransaction))),
    close: () => lite.close(),
  };
}

/**
 * Whether a batch's error left its connection unusable: anything but
 * Postgres's own answer to a statement (a refused insert, a policy), or a FATAL
 * one (the server ended the session). Such a client is destroyed, not given
 * back to the pool.
 */
function connectionLost(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError)) return true;
  return error.severity === 'FATAL' || error.severity === 'PANIC';
}

export async function openPostgres(connectionString: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: 16 });
  // An idle connection the server drops (restart, `drop database ... with (force)`)
  // must not crash the process; the pool replaces it on the next query.
  pool.on('error', () => {});
  const wrap = (c: pg.Pool | pg.PoolClient): Queryable => ({
    async query(sql, params) {
      const r = await c.query({ text: sql, values: params as unknown[] });
      return { rows: r.rows, fields: r.fields, affectedRows: r.rowCount ?? undefined };
    },
    async exec(sql) {
      await c.query(sql);
    },
    async batch(statements) {
      const batch = new PgBatch(statements);
      // Pool.query only takes plain queries; a submittable needs a client of its own.
      if (c instanceof pg.Pool) {
        const client = await c.connect();
        try {
          const results = await (client.query(batch as never), batch.promise);
          client.release();
          return results;
        } catch (error) {
          client.release(connectionLost(error) ? (error as Error) : undefined);
          throw error;
        }
      }
      c.query(batch as never);
      return batch.promise;
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        client.release();
        return result;
      } catch (error) {
        // fn's own errors (a 406, a requested rollback) leave a healthy
        // connection to roll back; one the rollback cannot reach is destroyed.
        const rolledBack = await client.query('rollback').then(
          () => true,
          () => false,
        );
        client.release(rolledBack ? undefined : (error as Error));
        throw error;
      }
    },
    close: () => pool.end(),
  };
}
