import type * as React from 'react';

/** A record's fields as a definition list: a label and its value, '—' when empty. */
export function DetailList({ items }: { items: { label: string; value: React.ReactNode }[] }) {
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
      {items.map((item) => (
        <div key={item.label} className="grid gap-0.5">
          <dt className="text-sm text-muted-foreground">{item.label}</dt>
          <dd className="break-words text-sm">{item.value === null || item.value === '' || item.value === undefined ? '—' : item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
