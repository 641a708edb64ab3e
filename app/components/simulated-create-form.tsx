// What a demonstration screen's create dialog adds to the app's form controls
// (spec §2, §3, §5): a submit button that shows the spec's busy label while
// this page's form is posted. The controls themselves live in form-controls.tsx;
// they are re-exported so a screen imports its dialog's pieces from one place.
import { useLocation, useNavigation } from 'react-router';
import { Button } from '~/components/ui/button';

export {
  CheckboxField,
  DialogActions,
  SelectField,
  TextareaField,
  TextField,
  useSchemaForm,
} from '~/components/form-controls';

/** True while this page's form is being posted, and through the redirect that follows. */
export function useFormBusy(): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  return (
    navigation.state !== 'idle' &&
    navigation.formMethod?.toUpperCase() === 'POST' &&
    (navigation.formAction?.split('?')[0] ?? '') === location.pathname
  );
}

export function SubmitButton({ label, busyLabel }: { label: string; busyLabel: string }) {
  const busy = useFormBusy();
  return (
    <Button type="submit" disabled={busy} aria-disabled={busy || undefined}>
      {busy ? busyLabel : label}
    </Button>
  );
}
