// The one record table (issue 32, decision 053): every list shows its records
// with it. Column headers that sort by the URL (links, so sorting works
// without JavaScript), the whole row opening the record through one real link
// (the first cell's, stretched over the row), status as a badge, money right
// aligned in tabular figures, optional checkboxes for a bulk action, rows
// dense enough for 15 at 1280×800, and on a phone two lines per record
// (the first cell with its `phoneLine`, beside the `phone` columns) that never
// scroll sideways.
import type * as React from 'react';
import { Link } from 'react-router';
import type { ListQuery, SortDir } from '~/lib/list-query';
import { cn } from '~/lib/utils';
import { SortHeader } from './sort-header';

export interface RecordColumn<Row> {
  /** Unique within the table. */
  id: string;
  header: string;
  cell: (row: Row) => React.ReactNode;
  /** The URL's sort key (?sort=), for a column the list may sort by (an indexed one); `first` is its first direction. */
  sort?: { key: string; first?: SortDir };
  /** Money and counts: right aligned, tabular figures. */
  numeric?: boolean;
  /** Also shown on a phone, at the row's end (an amount, a status). */
  phone?: boolean;
  /** Width or truncation of the column's cells. */
  className?: string;
  /** Holds its own controls (a Delete link): raised above the row's stretched link. */
  interactive?: boolean;
}

export interface RecordTableProps<Row> {
  /** What the table lists, for screen readers ("Leads"). */
  caption: string;
  pathname: string;
  /** The list's URL state, for its sort headers (a list that never sorts, like the audit log, may leave it out). */
  query?: ListQuery;
  rows: readonly Row[];
  columns: readonly RecordColumn<Row>[];
  rowKey: (row: Row) => string;
  /** The record's page: the first column's cell links to it and its link covers the row; null where there is none to open. */
  href: (row: Row) => string | null;
  /** The row link's name when its text alone would mislead ("Edit Follow-up" where the row opens an edit dialog). */
  linkLabel?: (row: Row) => string;
  /** A phone's second line under the first cell (the columns hidden there, in short). */
  phoneLine?: (row: Row) => React.ReactNode;
  /** Checkboxes for a bulk action: the id of the form they belong to, and each box's label. */
  select?: { form: string; name?: string; label: (row: Row) => string };
}

export function RecordTable<Row>({ caption, pathname, query, rows, columns, rowKey, href, linkLabel, phoneLine, select }: RecordTableProps<Row>) {
  const [first, ...rest] = columns;
  return (
    <table className="w-full border-collapse text-sm" data-record-table="">
      <caption className="sr-only">{caption}</caption>
      <thead className="max-md:sr-only">
        <tr className="border-b border-border text-left text-xs text-muted-foreground">
          {select ? (
            <th scope="col" className="w-8 py-2 pr-2 font-medium">
              <span className="sr-only">Select</span>
            </th>
          ) : null}
          {columns.map((column) => (
            <th
              key={column.id}
              scope="col"
              aria-sort={ariaSort(query, column)}
              className={cn('whitespace-nowrap px-2 py-2 font-medium first:pl-0 last:pr-0', column.numeric && 'text-right', column.phone ? '' : 'max-md:hidden')}
            >
              {column.sort && query ? (
                <SortHeader pathname={pathname} query={query} sortKey={column.sort.key} first={column.sort.first} numeric={column.numeric}>
                  {column.header}
                </SortHeader>
              ) : (
                column.header
              )}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-border">
        {rows.map((row) => (
          <tr
            key={rowKey(row)}
            className="relative align-middle transition-colors hover:bg-muted/60 has-[a:focus-visible]:bg-muted/60"
            data-row={rowKey(row)}
          >
            {select ? (
              <td className="w-8 py-2 pr-2">
                {/* Above the row's stretched link, so that ticking it does not open the record. */}
                <input
                  type="checkbox"
                  name={select.name ?? 'ids'}
                  value={rowKey(row)}
                  form={select.form}
                  aria-label={select.label(row)}
                  className="relative z-10 size-4 align-middle accent-primary"
                />
              </td>
            ) : null}
            <td className={cn('w-full max-w-0 py-2 pr-2 md:w-auto md:max-w-none', first.className)}>
              <RowLink to={href(row)} label={linkLabel?.(row)}>
                {first.cell(row)}
              </RowLink>
              {phoneLine ? <div className="truncate text-xs text-muted-foreground md:hidden">{phoneLine(row)}</div> : null}
            </td>
            {rest.map((column) => (
              <td
                key={column.id}
                className={cn(
                  'px-2 py-2 last:pr-0',
                  column.numeric && 'whitespace-nowrap text-right tabular-nums',
                  column.phone ? 'max-md:align-top max-md:whitespace-nowrap' : 'max-md:hidden',
                  column.interactive && 'relative z-10',
                  column.className,
                )}
              >
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The row's one link, stretched over the row (its ::after covers the <tr>, which is positioned). */
function RowLink({ to, label, children }: { to: string | null; label?: string; children: React.ReactNode }) {
  if (to === null) return <span className="block truncate font-medium">{children}</span>;
  return (
    <Link
      to={to}
      preventScrollReset={to.includes('?')}
      aria-label={label}
      className="block truncate font-medium after:absolute after:inset-0 after:content-[''] focus-visible:underline focus-visible:outline-none"
    >
      {children}
    </Link>
  );
}

function ariaSort<Row>(query: ListQuery | undefined, column: RecordColumn<Row>): 'ascending' | 'descending' | undefined {
  if (!column.sort || !query?.sort || query.sort.key !== column.sort.key) return undefined;
  return query.sort.dir === 'asc' ? 'ascending' : 'descending';
}
