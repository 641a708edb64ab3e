// The submit button of the settings forms. A settings screen posts several
// forms to one URL (save, delete, set-active, ...), so a button is busy only
// while a form with its own intent is posted; the fields and the dialog's
// Cancel link are the app's (~/components/form-controls).
import { useNavigation } from 'react-router';
import { Button } from '~/components/ui/button';

/** True while a form with this intent is being posted, through the redirect that follows. */
export function useIntentBusy(intent: string): boolean {
  const navigation = useNavigation();
  return navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
}

export function SubmitButton({
  intent,
  label,
  busyLabel,
  variant,
}: {
  intent: string;
  label: string;
  busyLabel: string;
  variant?: 'default' | 'destructive';
}) {
  const busy = useIntentBusy(intent);
  return (
    <Button type="submit" variant={variant} disabled={busy} aria-disabled={busy || undefined}>
      {busy ? busyLabel : label}
    </Button>
  );
}

/** A create-or-edit dialog's intent, and the id of the row it edits (none when it creates). */
export function SaveIntent({ id }: { id?: string }) {
  return (
    <>
      <input type="hidden" name="intent" value="save" />
      {id ? <input type="hidden" name="id" value={id} /> : null}
    </>
  );
}

/** "Create Template" / "Update Template", with the busy label the spec gives each. */
export function SaveButton({ editing, noun }: { editing: boolean; noun: string }) {
  return (
    <SubmitButton
      intent="save"
      label={editing ? `Update ${noun}` : `Create ${noun}`}
      busyLabel={editing ? 'Updating...' : 'Creating...'}
    />
  );
}
