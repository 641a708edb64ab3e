import { redirect } from 'react-router';

// As docs/product-guide.md says: /settings opens the website settings.
export function loader() {
  return redirect('/settings/website');
}
