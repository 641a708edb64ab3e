import type * as React from 'react';
import { useLocation, useNavigation } from 'react-router';
import { LoaderCircle } from '~/components/icons';

/** True while the router loads a new version of this same page (search, filter, paging, after a create). */
export function useListLoading(): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  return navigation.state === 'loading' && navigation.location?.pathname === location.pathname;
}

/** A list region that says when it is being reloaded, with a spinner. */
export function ListRegion({ label, children }: { label: string; children: React.ReactNode }) {
  const loading = useListLoading();
  return (
    <div className="relative" aria-busy={loading} aria-label={label} role="region">
      {loading ? (
        <div role="status" className="absolute inset-x-0 top-0 z-10 flex justify-center pt-6">
          <span className="flex items-center gap-2 rounded-md bg-background/90 px-3 py-2 text-sm shadow">
            <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
            Loading...
          </span>
        </div>
      ) : null}
      <div className={loading ? 'opacity-50 transition-opacity' : undefined}>{children}</div>
    </div>
  );
}

/** The empty state of a list: the spec's text when it has one, or a filter that matched nothing. */
export function ListEmpty({ children }: { children: React.ReactNode }) {
  return <p className="py-10 text-center text-sm text-muted-foreground">{children}</p>;
}

/**
 * A list's rows, or what stands in their place: the screen's failure text
 * when the read failed (an alert), else its empty text, one for a search or
 * filter that matched nothing and one for a list with nothing yet.
 */
export function ListBody({
  list,
  texts,
  children,
}: {
  list: { query: { q: string; status: string | null }; rows: readonly unknown[]; failed: boolean };
  texts: { loadFailed: string; empty: string; noMatch: string };
  children: React.ReactNode;
}) {
  if (list.failed) {
    return (
      <p role="alert" className="py-10 text-center text-sm text-destructive">
        {texts.loadFailed}
      </p>
    );
  }
  if (list.rows.length === 0) {
    const filtered = list.query.q !== '' || list.query.status !== null;
    return <ListEmpty>{filtered ? texts.noMatch : texts.empty}</ListEmpty>;
  }
  return <ul className="divide-y divide-border">{children}</ul>;
}
