import { Form, Link } from 'react-router';
import { Search } from '~/components/icons';
import { Button } from '~/components/ui/button';
import { Input, NativeSelect } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import type { ListSort } from '~/lib/list-query';
import type { Option } from '~/lib/schemas/fields';

/**
 * Search and status filter of a list, as a GET form: the URL carries them
 * (?q=&status=), so they work without JavaScript and can be bookmarked.
 * Submitting starts again at page 1, in the same order (the sort rides along).
 */
export function ListToolbar({
  pathname,
  q,
  status,
  sort = null,
  statuses,
  searchLabel,
}: {
  pathname: string;
  q: string;
  status: string | null;
  sort?: ListSort | null;
  statuses: Option[];
  searchLabel: string;
}) {
  const filtered = q !== '' || status !== null;
  return (
    <Form method="get" action={pathname} role="search" className="flex flex-col gap-2 sm:flex-row sm:items-end">
      {sort ? (
        <>
          <input type="hidden" name="sort" value={sort.key} />
          <input type="hidden" name="dir" value={sort.dir} />
        </>
      ) : null}
      <div className="grid flex-1 gap-1">
        <Label htmlFor={`${pathname}-q`} className="sr-only">
          {searchLabel}
        </Label>
        <Input id={`${pathname}-q`} type="search" name="q" defaultValue={q} placeholder={searchLabel} key={q} />
      </div>
      <div className="grid gap-1 sm:w-44">
        <Label htmlFor={`${pathname}-status`} className="sr-only">
          Status
        </Label>
        <NativeSelect id={`${pathname}-status`} name="status" defaultValue={status ?? ''} key={status ?? ''}>
          <option value="">All statuses</option>
          {statuses.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Button type="submit" variant="outline">
        <Search className="size-4" aria-hidden="true" />
        Search
      </Button>
      {filtered ? (
        <Button asChild variant="ghost">
          <Link to={sort ? `${pathname}?sort=${encodeURIComponent(sort.key)}&dir=${sort.dir}` : pathname}>Clear</Link>
        </Button>
      ) : null}
    </Form>
  );
}
