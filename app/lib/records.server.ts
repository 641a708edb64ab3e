// The record kit: what every screen that lists and changes an account's rows
// does the same way, business and settings alike. A new module's
// queries.server.ts and route use these, and never their own variants
// (docs/adding-a-module.md).
import type { SupabaseClient } from '@supabase/supabase-js';
import { PAGE_SIZE, pageRange, readListQuery, searchFilter, type ListPage, type ListQuery } from '~/lib/list-query';

/**
 * What the reader needs of a query: a supabase-js select (or RPC read) it
 * orders and pages. Its rows are read as the caller's Row, the columns it
 * selected (what `.returns<Row[]>()` would say).
 */
interface PageableSelect {
  order(column: 'created_at' | 'id', options: { ascending: boolean }): PageableSelect;
  range(from: number, to: number): PromiseLike<{ data: unknown; count?: number | null; error: { message: string } | null }>;
}

/** A select over a table with a `status` column, which the list's status filter and search narrow. */
interface FilterableSelect<S extends string> {
  eq(column: 'status', value: S): this;
  or(filters: string): this;
}

/**
 * The status filter and text search of the URL (?status=, ?q=) applied to a
 * select: an exact status, and the cleaned text as a case-insensitive match on
 * any of `searchColumns` (searchFilter says why nothing typed can be syntax).
 */
export function filterList<S extends string, Q extends FilterableSelect<S>>(
  select: Q,
  query: ListQuery<S>,
  searchColumns: readonly string[] = [],
): Q {
  let filtered = select;
  if (query.status) filtered = filtered.eq('status', query.status);
  const search = searchColumns.length > 0 ? searchFilter(query.q, searchColumns) : null;
  if (search) filtered = filtered.or(search);
  return filtered;
}

/**
 * The page of a list the URL asks for, newest first (the id breaks ties, so
 * pages never overlap or skip), plus one row to know whether a next page
 * exists. The total is the select's count when it asked for one
 * (`{ count: 'exact' }`), else null. A failed read is logged under `label`; the
 * page then shows the screen's 'Failed to fetch' text.
 */
export async function readList<Row, S extends string>(
  select: PageableSelect,
  query: ListQuery<S>,
  label: string,
): Promise<ListPage<Row, S>> {
  const { from, to } = pageRange(query.page);
  const { data, count, error } = await select
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .range(from, to);
  if (error) console.error(`${label} failed to load: ${error.message}`);
  const rows = (data ?? []) as Row[];
  return {
    query,
    pageSize: PAGE_SIZE,
    rows: rows.slice(0, PAGE_SIZE),
    total: count ?? null,
    hasNext: rows.length > PAGE_SIZE,
    failed: error !== null,
  };
}

/**
 * A list with neither search nor filter (the settings lists): the page the URL
 * asks for (?page=N) of `table`'s rows the user may read, counted.
 */
export function newestFirstPage<Row>(supabase: SupabaseClient, table: string, columns: string, url: URL) {
  const select = supabase.from(table).select(columns, { count: 'exact' });
  return readList<Row, never>(select, readListQuery(url, []), table);
}
