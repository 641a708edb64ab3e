// The one submit button of the app's forms. It shows the spec's working label
// ('Creating...', 'Saving...', 'Sending...') and is disabled from the moment
// its form is posted until the page it lands on has loaded, so a second click
// during the redirect cannot post twice. (Double posts are also harmless on
// the server: each is validated on its own.)
import { useLocation, useNavigation } from 'react-router';
import { Button, type ButtonProps } from '~/components/ui/button';

/**
 * True while a form is posted to this page, and through the redirect that
 * follows. A page that posts several forms to its own URL (save, delete,
 * deactivate, ...) tells them apart by their `intent` field: give the intent
 * and only a post with that intent counts.
 */
export function useFormBusy(intent?: string): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  if (navigation.state === 'idle' || navigation.formMethod?.toUpperCase() !== 'POST') return false;
  if (!navigation.formAction || pathOf(navigation.formAction) !== location.pathname) return false;
  return intent === undefined || navigation.formData?.get('intent') === intent;
}

export function SubmitButton({
  label,
  busyLabel,
  intent,
  variant,
  className,
}: {
  label: string;
  busyLabel: string;
  intent?: string;
  variant?: ButtonProps['variant'];
  className?: string;
}) {
  const busy = useFormBusy(intent);
  return (
    <Button type="submit" variant={variant} className={className} disabled={busy} aria-disabled={busy || undefined}>
      {busy ? busyLabel : label}
    </Button>
  );
}

/** '/quotes?new' and '/?index' name the pages '/quotes' and '/'. */
function pathOf(formAction: string): string {
  return new URL(formAction, 'http://x').pathname;
}
