// /portal: the client's place (decision 050). The quotes, invoices and signed
// documents sent to the signed-in client, under the seller's name. Staff have
// the business screens instead and are sent to their dashboard.
import { Outlet, redirect } from 'react-router';
import type { Route } from './+types/portal';
import { requireUserWith } from '~/lib/auth.server';
import { isExternal } from '~/lib/roles';
import { loadPortalBrand } from './queries.server';

export async function loader({ request, context }: Route.LoaderArgs) {
  const [{ profile }, brand] = await requireUserWith(request, context, loadPortalBrand);
  if (!isExternal(profile?.role)) throw redirect('/dashboard');
  return { brand };
}

export default function Portal({ loaderData }: Route.ComponentProps) {
  const name = loaderData.brand.name;
  return (
    <div className="grid min-w-0 gap-4">
      {name ? (
        <div className="flex min-w-0 items-center gap-3" data-testid="portal-seller">
          <span aria-hidden="true" className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary font-semibold text-primary-foreground">
            {name.charAt(0).toUpperCase()}
          </span>
          <p className="min-w-0 break-words font-semibold">{name}</p>
        </div>
      ) : null}
      <div className="min-w-0">
        <Outlet />
      </div>
    </div>
  );
}
