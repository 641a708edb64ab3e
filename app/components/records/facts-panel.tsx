// A record's facts, compact (issue 32): a label and its value on one line,
// and only the facts that have a value — a draft quote has no Sent, Signed or
// Decline reason to show, so it shows none of them rather than a row of "—".
import type * as React from 'react';
import { SectionHeading } from '~/components/page-header';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { cn } from '~/lib/utils';

export interface Fact {
  label: string;
  /** Empty (null, undefined, '' or false): the fact is left out. */
  value: React.ReactNode;
}

const isEmpty = (value: React.ReactNode) => value === null || value === undefined || value === '' || value === false;

/** The facts that have a value, as a definition list. */
export function FactList({ facts, className }: { facts: readonly Fact[]; className?: string }) {
  const shown = facts.filter((fact) => !isEmpty(fact.value));
  if (shown.length === 0) return null;
  return (
    <dl className={cn('grid gap-y-2 text-sm', className)}>
      {shown.map((fact) => (
        // A label beside its value; on a narrow column the value goes under it. min-w-0 and wrapping
        // anywhere: an email or a URL wraps inside the panel instead of widening the page.
        <div key={fact.label} className="grid min-w-0 grid-cols-[minmax(0,7.5rem)_minmax(0,1fr)] gap-x-3">
          <dt className="text-muted-foreground">{fact.label}</dt>
          <dd className="min-w-0 [overflow-wrap:anywhere]">{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A record's facts in a card, headed 'Details' unless told otherwise. */
export function FactsPanel({
  facts,
  title = 'Details',
  children,
}: {
  facts: readonly Fact[];
  title?: string;
  /** Anything the panel shows under the facts (a form the status allows, a link). */
  children?: React.ReactNode;
}) {
  return (
    <Card data-testid="facts-panel">
      <CardHeader className="pb-3">
        <SectionHeading>{title}</SectionHeading>
      </CardHeader>
      <CardContent className="grid gap-4">
        <FactList facts={facts} />
        {children}
      </CardContent>
    </Card>
  );
}

/** A value cut to its column with an ellipsis, whole on hover (its title) and to screen readers. */
export function Truncated({ children, className }: { children: string; className?: string }) {
  return (
    <span className={cn('block truncate', className)} title={children}>
      {children}
    </span>
  );
}
