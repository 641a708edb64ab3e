// The page header's "New …" action: a link, so the create dialog it opens is
// an address (`?new`) that works without JavaScript.
import { Plus } from '~/components/icons';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '~/components/ui/button';

export function CreateLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} preventScrollReset className={buttonClasses()}>
      <Plus className="size-4" aria-hidden="true" />
      {children}
    </Link>
  );
}
