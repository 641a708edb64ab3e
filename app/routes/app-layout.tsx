import { useEffect, useRef, useState } from 'react';
import { data, Form, Link, Outlet, redirect, useLocation, useNavigate, useNavigation, type Location } from 'react-router';
import { Menu, PanelLeft } from '~/components/icons';
import type { Route } from './+types/app-layout';
import { MobileSidebar, SidebarBrand, SidebarNav } from '~/components/app-sidebar';
import { AvatarMenu } from '~/components/avatar-menu';
import { requireUser } from '~/lib/auth.server';
import { EXTERNAL_HOME, homeFor, isActivePath, navGroupsFor } from '~/lib/navigation';
import { isExternal } from '~/lib/roles';
import {
  readSidebarOpen,
  SIDEBAR_KEYBOARD_SHORTCUT,
  SIDEBAR_WIDTH,
  SIDEBAR_WIDTH_ICON,
  SIDEBAR_WIDTH_MOBILE,
  sidebarCookie,
} from '~/lib/sidebar';
import { useHydrated } from '~/lib/use-hydrated';

/** Without JS the toggle is a POST to the current page with ?sidebar=toggle. */
const sidebarToggleMiddleware: Route.MiddlewareFunction = async ({ request, url }, next) => {
  if (request.method === 'POST' && url.searchParams.get('sidebar') === 'toggle') {
    const open = readSidebarOpen(request.headers.get('Cookie'));
    return redirect(url.pathname, { headers: { 'Set-Cookie': sidebarCookie(!open) } });
  }
  return next();
};

/** Everyone's own profile, outsiders' too. */
const PROFILE_PATH = '/profile';

/**
 * Clients and suppliers are outside the company: every screen but their own
 * pages (and their profile) sends them to their home (the database shows them
 * nothing and refuses their writes). For a read, the layout's loader sends
 * them, so the page's loaders read alongside the users row instead of waiting
 * for it (a loader's redirect wins over every loader's data).
 */
async function sendOutsidersHome(request: Request, context: Route.LoaderArgs['context']) {
  const { authUser, profile } = await requireUser(request, context);
  const path = new URL(request.url).pathname.replace(/\.data$/, '');
  if (isExternal(profile?.role) && !isActivePath(path, EXTERNAL_HOME) && !isActivePath(path, PROFILE_PATH)) {
    throw redirect(EXTERNAL_HOME);
  }
  return { authUser, profile };
}

/**
 * For a post, the same, without holding the action back: its write starts
 * alongside the users row (one backend round trip before the redirect), the
 * database refuses whatever an outsider may not do, and whatever the action
 * answered, an outsider (or a user signed out meanwhile) gets the redirect.
 */
const outsidersMiddleware: Route.MiddlewareFunction = async ({ request, context }, next) => {
  if (request.method === 'GET' || request.method === 'HEAD') return next();
  const refusal = sendOutsidersHome(request, context).then(
    () => null,
    (thrown: unknown) => ({ thrown }),
  );
  const response = await next();
  const refused = await refusal;
  if (refused) throw refused.thrown;
  return response;
};

export const middleware: Route.MiddlewareFunction[] = [sidebarToggleMiddleware, outsidersMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { authUser, profile } = await sendOutsidersHome(request, context);
  return data({
    user: {
      firstName: profile?.first_name ?? (authUser.user_metadata?.first_name as string | undefined) ?? null,
      lastName: profile?.last_name ?? (authUser.user_metadata?.last_name as string | undefined) ?? null,
      email: profile?.email ?? authUser.email ?? '',
      role: profile?.role ?? null,
    },
    // The workspace: the account's name, for staff (outsiders cannot read the account).
    workspace: profile?.account?.name ?? null,
    sidebarOpen: readSidebarOpen(request.headers.get('Cookie')),
  });
}

function withParam(location: Location, key: string, value: string): string {
  const params = new URLSearchParams(location.search);
  params.set(key, value);
  return `${location.pathname}?${params}`;
}

function withoutParam(location: Location, key: string): string {
  const params = new URLSearchParams(location.search);
  params.delete(key);
  const search = params.toString();
  return search ? `${location.pathname}?${search}` : location.pathname;
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  const { user, workspace } = loaderData;
  const location = useLocation();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(loaderData.sidebarOpen);
  const [mobileOpen, setMobileOpen] = useState<boolean | null>(null);
  const groups = navGroupsFor(user.role ?? undefined);
  const home = homeFor(user.role ?? undefined);

  const menuParam = new URLSearchParams(location.search).get('menu') === 'open';
  const showMobile = mobileOpen ?? menuParam;
  // Closing keeps the page's own query (search, page), dropping only ?menu.
  const closeMenuTo = withoutParam(location, 'menu');
  const menuButton = useRef<HTMLAnchorElement>(null);
  const navigate = useNavigate();
  const closeMobile = () => {
    setMobileOpen(false);
    if (menuParam) navigate(closeMenuTo, { replace: true, preventScrollReset: true });
  };

  const toggle = () => {
    setOpen((current) => {
      document.cookie = sidebarCookie(!current);
      return !current;
    });
  };

  // Ctrl/Cmd+B toggles the sidebar (docs/product-guide.md).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === SIDEBAR_KEYBOARD_SHORTCUT && (event.metaKey || event.ctrlKey)) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  // A navigation from the slide-over closes it.
  const [lastPath, setLastPath] = useState(location.pathname);
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname);
    setMobileOpen(null);
  }

  return (
    <div
      className="flex min-h-screen bg-background"
      // Set once React has taken over the page: keyboard shortcuts work from then on.
      data-hydrated={hydrated ? '' : undefined}
      style={
        {
          '--sidebar-width': SIDEBAR_WIDTH,
          '--sidebar-width-icon': SIDEBAR_WIDTH_ICON,
          '--sidebar-width-mobile': SIDEBAR_WIDTH_MOBILE,
        } as React.CSSProperties
      }
    >
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-background focus:p-2">
        Skip to content
      </a>
      <aside
        data-state={open ? 'expanded' : 'collapsed'}
        className={`sticky top-0 hidden h-screen shrink-0 flex-col border-r border-border bg-muted/40 transition-[width] duration-200 md:flex ${
          open ? 'w-[var(--sidebar-width)]' : 'w-[var(--sidebar-width-icon)]'
        }`}
      >
        <SidebarBrand collapsed={!open} home={home} />
        <SidebarNav groups={groups} pathname={location.pathname} collapsed={!open} />
      </aside>

      <MobileSidebar
        open={showMobile}
        groups={groups}
        pathname={location.pathname}
        closeTo={closeMenuTo}
        home={home}
        opener={() => menuButton.current}
        onClose={hydrated ? closeMobile : undefined}
      />

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-20 flex h-14 items-center justify-between gap-2 border-b border-border bg-background/95 px-3 backdrop-blur">
          <div className="flex items-center gap-2">
            <Form
              method="post"
              action={`${location.pathname}?sidebar=toggle`}
              className="hidden md:block"
              onSubmit={(event) => {
                event.preventDefault();
                toggle();
              }}
            >
              <button
                type="submit"
                className="rounded-md p-2 hover:bg-muted"
                aria-label="Toggle sidebar"
                aria-expanded={open}
                title="Toggle sidebar (Ctrl+B)"
              >
                <PanelLeft className="size-5" aria-hidden="true" />
              </button>
            </Form>
            <Link
              ref={menuButton}
              to={withParam(location, 'menu', 'open')}
              replace
              className="rounded-md p-2 hover:bg-muted md:hidden"
              aria-label="Open navigation"
              onClick={(event) => {
                if (!hydrated) return;
                event.preventDefault();
                setMobileOpen(true);
              }}
            >
              <Menu className="size-5" aria-hidden="true" />
            </Link>
            {workspace ? (
              <p className="max-w-[40vw] truncate text-sm font-semibold sm:max-w-xs" title={workspace}>
                <span className="sr-only">Workspace: </span>
                {workspace}
              </p>
            ) : null}
          </div>
          <AvatarMenu user={user} />
        </header>
        <main id="main" className="flex-1 p-4 sm:p-6" aria-busy={navigation.state === 'loading'}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
