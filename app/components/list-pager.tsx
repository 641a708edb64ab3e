import { Link } from 'react-router';
import { buttonClasses } from '~/components/ui/button';
import { listHref, type ListPage } from '~/lib/list-query';

/**
 * Previous / Next links of a list read a page at a time (a ListPage, from
 * readList), for every list, business and settings alike. The total is shown
 * when the loader knows it; the next link exists when the loader found one
 * row more than a page. Links keep the list's search and filter.
 */
export function ListPager({
  list,
  pathname,
  noun,
}: {
  list: ListPage<unknown>;
  pathname: string;
  noun: string;
}) {
  const { query, pageSize, rows, total, hasNext } = list;
  if (rows.length === 0) return null;
  const first = (query.page - 1) * pageSize + 1;
  const last = first + rows.length - 1;
  return (
    <nav aria-label={`${noun} pages`} className="mt-4 flex flex-wrap items-center justify-between gap-2 text-sm">
      <p className="text-muted-foreground">
        Showing {first}–{last}
        {total !== null ? ` of ${total.toLocaleString('en-US')}` : ''} {noun}
      </p>
      <div className="flex gap-2">
        {query.page > 1 ? (
          <Link to={listHref(pathname, query, { page: query.page - 1 })} className={buttonClasses('outline', 'sm')} rel="prev">
            Previous
          </Link>
        ) : null}
        {hasNext ? (
          <Link to={listHref(pathname, query, { page: query.page + 1 })} className={buttonClasses('outline', 'sm')} rel="next">
            Next
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
