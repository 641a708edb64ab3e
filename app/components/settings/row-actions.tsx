// The actions on a row of a settings list. Each works without JavaScript: the
// links open the list's dialogs by URL, the toggle posts a plain form.
import { Form, Link } from 'react-router';
import { Button, buttonClasses } from '~/components/ui/button';
import { ConfirmDialog } from './confirm-dialog';

/** `?edit=<id>` and `?delete=<id>`, labelled with the row's name for a screen reader. */
export function EditDeleteLinks({ id, name }: { id: string; name: string }) {
  return (
    <>
      <Link to={`?edit=${id}`} preventScrollReset className={buttonClasses('outline', 'sm')} aria-label={`Edit ${name}`}>
        Edit
      </Link>
      <Link to={`?delete=${id}`} preventScrollReset className={buttonClasses('ghost', 'sm')} aria-label={`Delete ${name}`}>
        Delete
      </Link>
    </>
  );
}

/** Activate or Deactivate a row (intent `set-active`), posted to the list. */
export function SetActiveButton({
  action,
  id,
  name,
  active,
  className,
}: {
  action: string;
  id: string;
  name: string;
  active: boolean;
  /** A record table's row makes it shorter. */
  className?: string;
}) {
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="intent" value="set-active" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="active" value={String(!active)} />
      <Button type="submit" variant="outline" size="sm" className={className} aria-label={`${active ? 'Deactivate' : 'Activate'} ${name}`}>
        {active ? 'Deactivate' : 'Activate'}
      </Button>
    </Form>
  );
}

/** The `?delete=<id>` dialog: "Delete the template "X"? This cannot be undone." */
export function DeleteDialog({
  open,
  closeTo,
  noun,
  selected,
}: {
  open: boolean;
  closeTo: string;
  /** Capitalised, as in the title: "Template". */
  noun: string;
  selected: { id?: string; name: string } | null;
}) {
  return (
    <ConfirmDialog
      open={open}
      closeTo={closeTo}
      title={`Delete ${noun}`}
      description={`Delete the ${noun.toLowerCase()} "${selected?.name ?? ''}"? This cannot be undone.`}
      intent="delete"
      fields={{ id: selected?.id ?? '' }}
      confirmLabel="Delete"
      busyLabel="Deleting..."
    />
  );
}
