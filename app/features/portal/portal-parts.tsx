// Pieces the portal's pages share: the page's card around a list, and a PDF link.
import type * as React from 'react';
import { ListPager } from '~/components/list-pager';
import { ListBody, ListRegion } from '~/components/list-states';
import { PageHeader } from '~/components/page-header';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent } from '~/components/ui/card';
import type { ListPage } from '~/lib/list-query';
import { PORTAL_TEXTS as T } from './texts';

export function PortalList<Row>({
  title,
  description,
  list,
  texts,
  pathname,
  noun,
  children,
}: {
  title: string;
  description: string;
  list: ListPage<Row, never>;
  texts: { empty: string; loadFailed: string };
  pathname: string;
  noun: string;
  children: React.ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <Card>
        <CardContent className="pt-6">
          <ListRegion label={title}>
            <ListBody list={list} texts={{ ...texts, noMatch: texts.empty }}>
              {children}
            </ListBody>
            <ListPager list={list} pathname={pathname} noun={noun} />
          </ListRegion>
        </CardContent>
      </Card>
    </>
  );
}

/** A file, not a page: the browser downloads it (no client-side navigation). */
export function PdfLink({ href, label }: { href: string; label: string }) {
  return (
    <a href={href} download className={buttonClasses('outline', 'sm')} aria-label={`${T.downloadPdf}: ${label}`}>
      {T.downloadPdf}
    </a>
  );
}
