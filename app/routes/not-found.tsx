import { data, Link } from 'react-router';
import type { Route } from './+types/not-found';
import { buttonClasses } from '~/components/ui/button';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Page not found') }];

export function loader({ url }: Route.LoaderArgs) {
  // As docs/product-guide.md says: an unknown route is logged.
  console.warn(`404: no route for ${url.pathname}`);
  return data(null, { status: 404 });
}

export default function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 p-8 text-center">
      <p className="text-6xl font-extrabold text-muted-foreground" aria-hidden="true">
        404
      </p>
      <h1 className="text-2xl font-bold">Oops! Page not found</h1>
      <Link to="/" className={buttonClasses('default')}>
        Return to Home
      </Link>
    </main>
  );
}
