import { Link } from 'react-router';
import { buttonClasses } from '~/components/ui/button';

/** Previous/next links for a paged list; other search parameters are kept. */
export function Pager({
  page,
  pageSize,
  total,
  search,
  label,
}: {
  page: number;
  pageSize: number;
  total: number;
  search: string;
  label: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const hrefFor = (target: number) => {
    const params = new URLSearchParams(search);
    if (target === 1) params.delete('page');
    else params.set('page', String(target));
    const query = params.toString();
    return query ? `?${query}` : '.';
  };
  return (
    <nav aria-label={`${label} pages`} className="mt-4 flex items-center justify-between text-sm">
      <span className="text-muted-foreground">
        Page {page} of {pages}
      </span>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link to={hrefFor(page - 1)} className={buttonClasses('outline', 'sm')}>
            Previous
          </Link>
        ) : null}
        {page < pages ? (
          <Link to={hrefFor(page + 1)} className={buttonClasses('outline', 'sm')}>
            Next
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
