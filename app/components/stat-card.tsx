import type * as React from 'react';
import type { LucideIcon } from 'lucide-react';
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
  icon?: LucideIcon;
  className?: string;
}) {
  return (
    <Card className={cn('p-6', className)}>
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium text-muted-foreground">{label}</p>
        {Icon ? <Icon className="size-4 text-muted-foreground" aria-hidden="true" /> : null}
      </div>
      <p className="mt-2 text-2xl font-bold tracking-tight">{value}</p>
      {note ? <p className="mt-1 text-xs text-muted-foreground">{note}</p> : null}
    </Card>
  );
}

/** The usual row of summary cards: one column on phones, two on tablets, four on desktops. */
export function StatGrid({ label = 'Summary', children }: { label?: string; children: React.ReactNode }) {
  return (
    <section aria-label={label} className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {children}
    </section>
  );
}
