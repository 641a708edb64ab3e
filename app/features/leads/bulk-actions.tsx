// A bulk action's form: a POST with a button per action; the rows' checkboxes
// belong to it through their `form` attribute (the table is not inside it,
// so a row may still hold its own forms), which works without JavaScript.
// The action answers with a toast and comes back to the list page.
import type * as React from 'react';
import { Form } from 'react-router';

export function BulkActions({
  id,
  label,
  returnTo,
  children,
}: {
  /** The form's id, which the table's checkboxes name. */
  id: string;
  /** What the bar is, for screen readers ("Selected leads"). */
  label: string;
  /** The list page (search, filter, sort and page kept) to come back to. */
  returnTo: string;
  /** The buttons: each a submit with name="intent". */
  children: React.ReactNode;
}) {
  return (
    <Form id={id} method="post" aria-label={label} className="mb-2 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
      <input type="hidden" name="returnTo" value={returnTo} />
      <span>With the selected:</span>
      {children}
    </Form>
  );
}
