// The page of a business list, as every real module shows it: the header with
// its New … link (for those who may write), the summary cards, the searched,
// filtered and paged list, and the create dialog at ?new. A module gives its
// texts, its figures, its form and how one row reads.
import type * as React from 'react';
import { useLocation } from 'react-router';
import { CreateLink } from '~/components/create-link';
import { ListPager } from '~/components/list-pager';
import { ListBody, ListRegion } from '~/components/list-states';
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
  /** The rows, each an <li>. */
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
          <ListToolbar pathname={pathname} q={query.q} status={query.status} statuses={statuses} searchLabel={texts.searchLabel} />
        </CardHeader>
        <CardContent>
          <ListRegion label={texts.listHeading}>
            <ListBody list={list} texts={texts}>
              {children}
            </ListBody>
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
