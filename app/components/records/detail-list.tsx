import type * as React from 'react';

/** A record's fields as a definition list: a label and its value, '—' when empty. */
export function DetailList({ items }: { items: { label: string; value: React.ReactNode }[] }) {
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
      {items.map((item) => (
        // min-w-0 and wrapping anywhere: a long value without spaces (an email, a URL) wraps inside its
        // column instead of widening the page (a 120-character email pushed /quotes/:id to 1,348 px).
        <div key={item.label} className="grid min-w-0 gap-0.5">
          <dt className="text-sm text-muted-foreground">{item.label}</dt>
          <dd className="min-w-0 text-sm [overflow-wrap:anywhere]">{item.value === null || item.value === '' || item.value === undefined ? '—' : item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
