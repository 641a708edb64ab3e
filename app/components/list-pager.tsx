import { Link } from 'react-router';
import { buttonClasses } from '~/components/ui/button';

/**
 * Previous / Next links of a list read a page at a time. The total is shown
 * when it is known cheaply (see the loaders); the next link exists when the
 * loader found one row more than a page.
 */
export function ListPager({
  page,
  pageSize,
  rowsOnPage,
  total,
  hasNext,
  hrefFor,
  noun,
}: {
  page: number;
  pageSize: number;
  rowsOnPage: number;
  total: number | null;
  hasNext: boolean;
  hrefFor: (page: number) => string;
  noun: string;
}) {
  if (rowsOnPage === 0) return null;
  const first = (page - 1) * pageSize + 1;
  const last = first + rowsOnPage - 1;
  return (
    <nav aria-label={`${noun} pages`} className="mt-4 flex flex-wrap items-center justify-between gap-2 text-sm">
      <p className="text-muted-foreground">
        Showing {first}–{last}
        {total !== null ? ` of ${total.toLocaleString('en-US')}` : ''} {noun}
      </p>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link to={hrefFor(page - 1)} className={buttonClasses('outline', 'sm')} rel="prev">
            Previous
          </Link>
        ) : null}
        {hasNext ? (
          <Link to={hrefFor(page + 1)} className={buttonClasses('outline', 'sm')} rel="next">
            Next
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
