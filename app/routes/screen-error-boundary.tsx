// Every signed-in screen renders inside this pathless route, so an error in a
// screen's loader, action or component is shown here, inside the shell: the
// sidebar stays, the page says what failed and offers to try again (a plain
// link to the same address, which works without JavaScript).
import { Link, Outlet, useLocation } from 'react-router';
import type { Route } from './+types/screen-error-boundary';
import { buttonClasses } from '~/components/ui/button';
import { ERROR_TITLE, errorSummary } from '~/lib/error-summary';

export default function Screens() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { status, detail } = errorSummary(error);
  const location = useLocation();
  if (status >= 500) console.error(error);
  return (
    <section role="alert" className="mx-auto flex max-w-xl flex-col items-center gap-4 py-16 text-center">
      <h1 className="text-2xl font-bold">{ERROR_TITLE}</h1>
      <p className="text-muted-foreground">
        {status} — {detail}
      </p>
      <div className="flex gap-3">
        <a href={`${location.pathname}${location.search}`} className={buttonClasses()}>
          Try again
        </a>
        <Link to="/dashboard" className={buttonClasses('outline')}>
          Go to Dashboard
        </Link>
      </div>
    </section>
  );
}
