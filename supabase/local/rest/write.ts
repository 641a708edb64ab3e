// INSERT (and upsert), UPDATE and DELETE statements. JSON bodies go to
// Postgres as one bound parameter and are turned into typed rows there with
// json_populate_record(set), so types, arrays and json columns behave exactly
// as in PostgREST.
import { RestError } from './errors.ts';
import { parseNameList } from './parse-filter.ts';
import type { Relation } from './schema-cache.ts';
import { type Params, qualified, quoteIdent } from './sql.ts';

export const invalidBody = (message = 'Empty or invalid json') => new RestError(400, 'PGRST102', message);

/**
 * PGlite is one connection: every other request waits while one runs, and it
 * cannot cut a statement short. A bulk insert is capped so that no tenant can
 * hold the others for long (bench/README.md measures the worst stall).
 */
export const MAX_INSERT_ROWS = 1000;

const unknownPayloadColumn = (table: string, column: string) =>
  new RestError(400, 'PGRST204', `Could not find the '${column}' column of '${table}' in the schema cache`, { schemaMiss: true });

function checkColumns(relation: Relation, columns: string[]): void {
  for (const column of columns) if (!relation.columns.has(column)) throw unknownPayloadColumn(relation.name, column);
}

const isRow = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface InsertInput {
  relation: Relation;
  alias: string;
  body: unknown;
  rawBody: string;
  columnsParam: string | null;
  onConflict: string | null;
  resolution: 'merge-duplicates' | 'ignore-duplicates' | null;
  missingDefault: boolean;
}

/** The INSERT statement (no RETURNING), or null when there is nothing to insert. */
export function insertSql(input: InsertInput, params: Params): string | null {
  const { relation, body } = input;
  const rows = Array.isArray(body) ? body : [body];
  if (!rows.every(isRow)) throw invalidBody();
  if (rows.length === 0) return null;
  if (rows.length > MAX_INSERT_ROWS) {
    throw new RestError(413, 'PGRST413', `A bulk insert may hold at most ${MAX_INSERT_ROWS} rows (this one has ${rows.length}): send it in smaller batches`);
  }

  let columns: string[];
  if (input.columnsParam !== null) columns = parseNameList(input.columnsParam, 'columns parameter');
  else {
    columns = Object.keys(rows[0]);
    const same = (row: Record<string, unknown>) => {
      const keys = Object.keys(row);
      return keys.length === columns.length && keys.every((k) => columns.includes(k));
    };
    if (!input.missingDefault && !rows.every(same)) throw invalidBody('All object keys must match');
    if (input.missingDefault) columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  }
  checkColumns(relation, columns);

  const table = `${qualified(relation.schema, relation.name)} as ${input.alias}`;
  const rowType = `null::${qualified(relation.schema, relation.name)}`;
  const names = columns.map(quoteIdent).join(', ');
  let statement: string;
  if (columns.length === 0) {
    const first = quoteIdent([...relation.columns.keys()][0]);
    statement = `insert into ${table} (${first}) values ${rows.map(() => '(default)').join(', ')}`;
  } else if (input.missingDefault) {
    // Absent keys take the column default, present ones (even null) their value.
    const values = rows.map((row) => {
      const record = `json_populate_record(${rowType}, ${params.add(JSON.stringify(row))}::json)`;
      return `(${columns.map((c) => (c in row ? `(${record}).${quoteIdent(c)}` : 'default')).join(', ')})`;
    });
    statement = `insert into ${table} (${names}) values ${values.join(', ')}`;
  } else {
    const json = Array.isArray(body) ? `${params.add(input.rawBody)}::json` : `json_build_array(${params.add(input.rawBody)}::json)`;
    statement = `insert into ${table} (${names}) select ${names} from json_populate_recordset(${rowType}, ${json}) as "_pgrst_body"`;
  }
  return statement + conflictSql(input, columns);
}

function conflictSql(input: InsertInput, columns: string[]): string {
  if (!input.resolution) return '';
  const target = input.onConflict !== null ? parseNameList(input.onConflict, 'on_conflict parameter') : input.relation.primaryKey;
  checkColumns(input.relation, target);
  const targetSql = target.length > 0 ? ` (${target.map(quoteIdent).join(', ')})` : '';
  if (input.resolution === 'ignore-duplicates') return ` on conflict${targetSql} do nothing`;
  if (target.length === 0) {
    throw new RestError(400, 'PGRST103', `An upsert on '${input.relation.name}' needs on_conflict or a primary key`);
  }
  const sets = (columns.length > 0 ? columns : target).map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`);
  return ` on conflict${targetSql} do update set ${sets.join(', ')}`;
}

export function updateSql(relation: Relation, alias: string, body: unknown, rawBody: string, where: string, params: Params): string | null {
  if (!isRow(body)) throw invalidBody();
  const columns = Object.keys(body);
  checkColumns(relation, columns);
  if (columns.length === 0) return null;
  const source = `json_populate_record(null::${qualified(relation.schema, relation.name)}, ${params.add(rawBody)}::json) as "_pgrst_body"`;
  const sets = columns.map((c) => `${quoteIdent(c)} = "_pgrst_body".${quoteIdent(c)}`).join(', ');
  return `update ${qualified(relation.schema, relation.name)} as ${alias} set ${sets} from ${source} where ${where}`;
}

export function deleteSql(relation: Relation, alias: string, where: string): string {
  return `delete from ${qualified(relation.schema, relation.name)} as ${alias} where ${where}`;
}
