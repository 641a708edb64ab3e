// What the settings dialogs add to the app's form controls: a settings screen
// posts several forms to one URL (save, delete, set-active, ...), told apart by
// an `intent` field; a create-or-edit dialog's intent is "save".
import { SubmitButton } from '~/components/submit-button';

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
