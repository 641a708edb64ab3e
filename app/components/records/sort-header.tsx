// A column header that sorts: a plain link to the list sorted by the column
// (?sort=&dir=), so it works without JavaScript and can be bookmarked. The
// arrow says the current direction; the <th>'s aria-sort says it to screen
// readers (set by the record table).
import type * as React from 'react';
import { Link } from 'react-router';
import { ArrowDown, ArrowUp, ArrowUpDown } from '~/components/icons';
import { sortHref, type ListQuery, type SortDir } from '~/lib/list-query';
import { cn } from '~/lib/utils';

export function SortHeader({
  pathname,
  query,
  sortKey,
  first = 'asc',
  numeric = false,
  children,
}: {
  pathname: string;
  query: ListQuery;
  sortKey: string;
  first?: SortDir;
  numeric?: boolean;
  children: React.ReactNode;
}) {
  const dir = query.sort?.key === sortKey ? query.sort.dir : null;
  const Arrow = dir === 'asc' ? ArrowUp : dir === 'desc' ? ArrowDown : ArrowUpDown;
  return (
    <Link
      to={sortHref(pathname, query, sortKey, first)}
      preventScrollReset
      className={cn(
        'inline-flex items-center gap-1 rounded-sm hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        numeric && 'flex-row-reverse',
        dir && 'text-foreground',
      )}
    >
      {children}
      <Arrow className={cn('size-3', !dir && 'opacity-40')} aria-hidden="true" />
    </Link>
  );
}
