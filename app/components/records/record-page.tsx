// One record page (issue 32): a header with the record's name or number, its
// status as a badge and the actions its status allows; the facts panel beside
// the main content on a wide screen and, on a phone, right under the header —
// the status and the facts before the line items and the history.
import type * as React from 'react';
import { cn } from '~/lib/utils';
import { BackLink } from './back-link';

export function RecordPage({
  back,
  title,
  status,
  subtitle,
  actions,
  facts,
  notices,
  wide,
  children,
  dialogs,
}: {
  back: { to: string; label: string };
  title: string;
  /** The status badge, beside the title. */
  status?: React.ReactNode;
  subtitle?: React.ReactNode;
  /** Only what the record's status allows; nothing when none. */
  actions?: React.ReactNode;
  /** The side column: the facts panel, and any small card the status allows (a payment, a status form). */
  facts: React.ReactNode;
  /** Said above everything (a delivery failure, a link just made). */
  notices?: React.ReactNode;
  /**
   * A section across the whole width, above both columns on a wide screen and after the facts on a
   * phone: a document's file beside its fields.
   */
  wide?: React.ReactNode;
  /** The main column: line items, review, the timeline last. */
  children: React.ReactNode;
  /** URL-opened dialogs, outside the layout. */
  dialogs?: React.ReactNode;
}) {
  return (
    <>
      <BackLink to={back.to}>{back.label}</BackLink>
      <header className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between" data-testid="record-header">
        <div className="grid min-w-0 gap-1">
          <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
            <h1 className="min-w-0 text-2xl font-bold tracking-tight [overflow-wrap:anywhere] sm:text-3xl">{title}</h1>
            {status}
          </div>
          {subtitle ? <p className="min-w-0 text-sm text-muted-foreground [overflow-wrap:anywhere]">{subtitle}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </header>
      {notices}
      {/* The facts come first in the document (a phone shows them first); a wide screen puts them on the right. */}
      <div className="grid gap-6 lg:grid-cols-3">
        <aside
          aria-label="Record details"
          className={cn('grid min-w-0 content-start gap-6 lg:col-start-3', wide ? 'lg:row-start-2' : 'lg:row-start-1')}
          data-testid="record-facts"
        >
          {facts}
        </aside>
        {wide ? <div className="grid min-w-0 gap-6 lg:col-span-3 lg:row-start-1">{wide}</div> : null}
        <div className={cn('grid min-w-0 content-start gap-6 lg:col-span-2 lg:col-start-1', wide ? 'lg:row-start-2' : 'lg:row-start-1')} data-testid="record-main">
          {children}
        </div>
      </div>
      {dialogs}
    </>
  );
}
