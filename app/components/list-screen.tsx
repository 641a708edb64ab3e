// The page of a business list, as every real module shows it: the header with
// its New … link (for those who may write), the summary cards, the searched,
// filtered, sorted and paged list (the record table of app/components/records),
// and the create dialog at ?new. A module gives its texts, its figures, its
// form and its table. A list with nothing yet says what it is for and offers
// the New … link.
import type * as React from 'react';
import { useLocation } from 'react-router';
import { CreateLink } from '~/components/create-link';
import { ListPager } from '~/components/list-pager';
import { ListRegion } from '~/components/list-states';
import { RecordEmpty } from '~/components/records/record-empty';
import { ListToolbar } from '~/components/list-toolbar';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { listHref, withDialog, type ListPage } from '~/lib/list-query';
import type { Option } from '~/lib/schemas/fields';

/** What a list screen says: a module's texts.ts holds them (docs/product-guide.md gives each screen's). */
export interface ListScreenTexts {
  title: string;
  description: string;
  newButton: string;
  dialogTitle: string;
  dialogDescription: string;
  listHeading: string;
  searchLabel: string;
  /** Lower case, plural: "Showing 1–20 of 25 quotes". */
  noun: string;
  loadFailed: string;
  empty: string;
  noMatch: string;
}

export function ListScreen<Row>({
  pathname,
  texts,
  list,
  canWrite,
  statuses,
  summary,
  form,
  bulk,
  emptyAction,
  children,
}: {
  pathname: string;
  texts: ListScreenTexts;
  list: ListPage<Row>;
  canWrite: boolean;
  statuses: Option[];
  /** The summary cards above the list. */
  summary: React.ReactNode;
  /** The create dialog's form. */
  form: React.ReactNode;
  /** A bulk action's form above the rows (e.g. app/features/leads/bulk-actions.tsx), for those who may write. */
  bulk?: React.ReactNode;
  /** The first action of an empty list when it is not the New … dialog (a link elsewhere). */
  emptyAction?: React.ReactNode;
  /** The rows: a RecordTable. */
  children: React.ReactNode;
}) {
  const { query } = list;
  const location = useLocation();
  const dialogOpen = canWrite && new URLSearchParams(location.search).has('new');
  return (
    <>
      <PageHeader
        title={texts.title}
        description={texts.description}
        actions={canWrite ? <CreateLink to={withDialog(listHref(pathname, query, {}))}>{texts.newButton}</CreateLink> : null}
      />
      {summary}

      <Card>
        <CardHeader className="gap-4">
          <SectionHeading>{texts.listHeading}</SectionHeading>
          <ListToolbar pathname={pathname} q={query.q} status={query.status} sort={query.sort} statuses={statuses} searchLabel={texts.searchLabel} />
        </CardHeader>
        <CardContent>
          <ListRegion label={texts.listHeading}>
            {list.failed ? (
              <p role="alert" className="py-10 text-center text-sm text-destructive">
                {texts.loadFailed}
              </p>
            ) : list.rows.length === 0 ? (
              query.q !== '' || query.status !== null ? (
                <RecordEmpty title={texts.noMatch} />
              ) : (
                <RecordEmpty
                  title={texts.empty}
                  purpose={texts.description}
                  action={emptyAction ?? (canWrite ? <CreateLink to={withDialog(listHref(pathname, query, {}))}>{firstAction(texts.noun)}</CreateLink> : null)}
                />
              )
            ) : (
              <>
                {canWrite ? bulk : null}
                {children}
              </>
            )}
            <ListPager list={list} pathname={pathname} noun={texts.noun} />
          </ListRegion>
        </CardContent>
      </Card>

      <UrlDialog open={dialogOpen} closeTo={listHref(pathname, query, {})} title={texts.dialogTitle} description={texts.dialogDescription}>
        {form}
      </UrlDialog>
    </>
  );
}

/** The empty list's own words for its create link ('Add your first lead'), told apart from the header's New … link. */
function firstAction(noun: string): string {
  return `Add your first ${noun.replace(/s$/, '')}`;
}
