import { Form } from 'react-router';
import { DialogActions } from '~/components/form-controls';
import { UrlDialog } from '~/components/url-dialog';
import { SubmitButton } from '~/components/submit-button';

/**
 * A confirmation that works without JavaScript: the page opens it from its URL
 * (`?delete=<id>`), and confirming posts a normal form.
 */
export function ConfirmDialog({
  open,
  closeTo,
  title,
  description,
  intent,
  fields,
  confirmLabel,
  busyLabel,
  focusCancel = false,
  variant = 'destructive',
}: {
  open: boolean;
  closeTo: string;
  title: string;
  description: string;
  intent: string;
  fields: Record<string, string>;
  confirmLabel: string;
  busyLabel: string;
  /** Start on Cancel (a delete). */
  focusCancel?: boolean;
  /** Destructive (delete, revoke) unless the confirmed step is not (a purchase). */
  variant?: 'destructive' | 'default';
}) {
  return (
    <UrlDialog open={open} closeTo={closeTo} title={title} description={description}>
      <Form method="post" action={closeTo}>
        <input type="hidden" name="intent" value={intent} />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <DialogActions closeTo={closeTo} focusCancel={focusCancel}>
          <SubmitButton intent={intent} label={confirmLabel} busyLabel={busyLabel} variant={variant} />
        </DialogActions>
      </Form>
    </UrlDialog>
  );
}
