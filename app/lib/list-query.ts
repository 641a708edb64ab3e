// The one paging contract of every list, business and settings alike. The URL
// of a list page is its state: ?q= (search text), ?status=, ?sort=&dir= and ?page=, read by
// the loader and written by a GET form and plain links, so search, filter and
// paging work without JavaScript and can be bookmarked. The server half (the
// reader that fills a ListPage) is readList in app/lib/records.server.ts; the
// pager that shows one is app/components/list-pager.tsx.

export const PAGE_SIZE = 20;
const MAX_QUERY_LENGTH = 100;
/** Deep offsets get slow and no one pages that far by hand. */
const MAX_PAGE = 500;

export type SortDir = 'asc' | 'desc';

/** A list's order asked for by the URL: a column the list allows, and a direction. */
export interface ListSort {
  key: string;
  dir: SortDir;
}

export interface ListQuery<S extends string = string> {
  q: string;
  status: S | null;
  page: number;
  /** Null: the list's own order (newest first), the URL asked for none or for one it does not allow. */
  sort: ListSort | null;
}

export function readListQuery<S extends string>(url: URL, statuses: readonly S[], sortKeys: readonly string[] = []): ListQuery<S> {
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, MAX_QUERY_LENGTH);
  const rawStatus = url.searchParams.get('status');
  const status = statuses.find((s) => s === rawStatus) ?? null;
  const rawPage = Number.parseInt(url.searchParams.get('page') ?? '1', 10);
  const page = Number.isFinite(rawPage) ? Math.min(Math.max(rawPage, 1), MAX_PAGE) : 1;
  return { q, status, page, sort: readListSort(url.searchParams, sortKeys) };
}

/**
 * ?sort=<column>&dir=asc|desc, for the columns a list allows: each has an
 * index that leads with the account (docs/decisions/053), so a sorted page
 * costs the same at 100,000 rows as at 10. Anything else (an unknown column,
 * a column of another list, a repeated or hand-made parameter) is the list's
 * own order, never an error; a known column without a direction is ascending.
 */
export function readListSort(params: URLSearchParams, sortKeys: readonly string[]): ListSort | null {
  const rawKey = params.get('sort');
  const key = sortKeys.find((k) => k === rawKey);
  if (!key) return null;
  const dir: SortDir = params.get('dir') === 'desc' ? 'desc' : 'asc';
  return { key, dir };
}

/**
 * Where a column header's link goes: the same list sorted by that column,
 * back at its first page. A column already sorted by turns around; another
 * starts in its `first` direction (newest or largest first for dates and
 * amounts, A to Z for names).
 */
export function sortHref(pathname: string, query: ListQuery, key: string, first: SortDir = 'asc'): string {
  const current = query.sort?.key === key ? query.sort.dir : null;
  const dir: SortDir = current === null ? first : current === 'asc' ? 'desc' : 'asc';
  return listHref(pathname, query, { sort: key, dir, page: null });
}

/**
 * A page of a list as a loader hands it to the page: the URL's query, the
 * rows, and what the pager needs. `total` is known when the loader counted
 * (or took it from a summary), null when only the look-ahead row was read.
 * `failed` means the read failed: the page shows the screen's "Failed to
 * fetch" text instead of an empty state (the error is logged).
 */
export interface ListPage<Row, S extends string = string> {
  query: ListQuery<S>;
  pageSize: number;
  rows: Row[];
  total: number | null;
  hasNext: boolean;
  failed: boolean;
}

/** The rows of a page, as PostgREST's inclusive range; one extra row tells whether a next page exists. */
export function pageRange(page: number, pageSize = PAGE_SIZE): { from: number; to: number } {
  const from = (page - 1) * pageSize;
  return { from, to: from + pageSize };
}

/**
 * What is searched for: only letters, digits, spaces and a few harmless marks
 * are kept, so nothing the user types can be read as a LIKE wildcard or as
 * filter syntax. Null when nothing searchable is left.
 */
export function searchText(q: string): string | null {
  const text = q
    .replace(/[^\p{L}\p{N}\s@.'+&#/-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text || null;
}

/**
 * Search text as a PostgREST `or=` filter: `col.ilike."*text*"` for each column,
 * the text cleaned by searchText and quoted as well. Null when nothing
 * searchable is left.
 */
export function searchFilter(q: string, columns: readonly string[]): string | null {
  const text = searchText(q);
  if (!text) return null;
  return columns.map((column) => `${column}.ilike."*${text}*"`).join(',');
}

/** A status filter's options, labelled by the value capitalised ('new' → 'New'). */
export function statusOptions(statuses: readonly string[]): { value: string; label: string }[] {
  return statuses.map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }));
}

/** A link to the same list with some parameters changed (null removes one); the sort is kept like the search. */
export function listHref(
  pathname: string,
  query: ListQuery,
  changes: Partial<Record<'q' | 'status' | 'page' | 'sort' | 'dir', string | number | null>>,
): string {
  const params = new URLSearchParams();
  const merged = {
    q: query.q || null,
    status: query.status,
    sort: query.sort?.key ?? null,
    dir: query.sort?.dir ?? null,
    page: query.page > 1 ? query.page : null,
    ...changes,
  };
  for (const [key, value] of Object.entries(merged)) {
    if (value !== null && value !== undefined && value !== '' && !(key === 'page' && Number(value) <= 1)) {
      params.set(key, String(value));
    }
  }
  const search = params.toString();
  return search ? `${pathname}?${search}` : pathname;
}

/** The same list with its create dialog open (?new), keeping search, filter and page. */
export function withDialog(href: string, param = 'new'): string {
  return `${href}${href.includes('?') ? '&' : '?'}${param}`;
}
