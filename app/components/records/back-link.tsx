import { ArrowLeft } from '~/components/icons';
import { Link } from 'react-router';

/** The way back from a record's page to its list. */
export function BackLink({ to, children }: { to: string; children: string }) {
  return (
    <Link to={to} className="mb-4 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeft className="size-4" aria-hidden="true" />
      {children}
    </Link>
  );
}
