import type * as React from 'react';
import type { IconComponent } from '~/components/icons';
import { Card } from '~/components/ui/card';
import { cn } from '~/lib/utils';

/**
 * One summary figure: a label, the value and a short note beneath it. Not a
 * heading (a row of four would crowd the outline); screen readers read the
 * label, then the value, then the note, in that order.
 */
export function StatCard({
  label,
  value,
  note,
  icon: Icon,
  className,
}: {
  label: string;
  value: React.ReactNode;
  note?: React.ReactNode;
  icon?: IconComponent;
  className?: string;
}) {
  return (
    // Compact on a phone, so a list page's list starts within the first screen.
    <Card className={cn('min-w-0 p-3 sm:p-6', className)}>
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</p>
        {Icon ? <Icon className="hidden size-4 text-muted-foreground sm:block" aria-hidden="true" /> : null}
      </div>
      <p className="mt-1 break-words text-lg font-bold tracking-tight sm:mt-2 sm:text-2xl" data-stat-value="">
        {value}
      </p>
      {note ? <p className="mt-1 hidden text-xs text-muted-foreground sm:block">{note}</p> : null}
    </Card>
  );
}

/** The usual row of summary cards: two compact columns on phones (notes hidden), two on tablets, four on desktops. */
export function StatGrid({ label = 'Summary', children }: { label?: string; children: React.ReactNode }) {
  return (
    <section aria-label={label} className="mb-4 grid grid-cols-2 gap-2 sm:mb-6 sm:gap-4 lg:grid-cols-4">
      {children}
    </section>
  );
}
