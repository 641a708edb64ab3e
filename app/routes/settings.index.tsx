import { redirect } from 'react-router';

// Spec §2: /settings opens the website settings.
export function loader() {
  return redirect('/settings/website');
}
