import { useFormAction, useNavigation } from 'react-router';
import { Button } from '~/components/ui/button';

/**
 * A dialog's submit button: it shows the spec's working label ('Creating...')
 * and is disabled while its own form is being posted. (Double posts are also
 * harmless on the server: each is validated on its own.)
 */
export function SubmitButton({ idle, busy }: { idle: string; busy: string }) {
  const navigation = useNavigation();
  const action = useFormAction();
  const submitting =
    navigation.state === 'submitting' && navigation.formAction !== undefined && sameAction(navigation.formAction, action);
  return (
    <Button type="submit" disabled={submitting} className="justify-self-end">
      {submitting ? busy : idle}
    </Button>
  );
}

function sameAction(a: string, b: string): boolean {
  return new URL(a, 'http://x').pathname === new URL(b, 'http://x').pathname;
}
