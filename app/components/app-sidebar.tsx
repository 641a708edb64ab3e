import type * as React from 'react';
import { Dialog } from 'radix-ui';
import { Link, NavLink } from 'react-router';
import { X } from '~/components/icons';
import { isActivePath, type NavGroup } from '~/lib/navigation';
import { BRAND_NAME, TAGLINE } from '~/lib/site';
import { useFocusReturn } from '~/lib/use-focus-return';
import { cn } from '~/lib/utils';

/** The sidebar's content, shared by the desktop rail and the mobile slide-over. */
export function SidebarNav({
  groups,
  pathname,
  collapsed,
}: {
  groups: NavGroup[];
  pathname: string;
  collapsed: boolean;
}) {
  return (
    <nav aria-label="Application" className="flex-1 overflow-y-auto px-2 py-3">
      {groups.map((group) => (
        <div key={group.label} className="mb-4">
          <h2
            className={cn(
              'px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground',
              collapsed && 'sr-only',
            )}
          >
            {group.label}
          </h2>
          <ul className="grid gap-0.5">
            {group.items.map((item) => {
              const active = item.exact ? pathname === item.to : isActivePath(pathname, item.to);
              const Icon = item.icon;
              return (
                <li key={item.to} className="group/item relative">
                  <NavLink
                    to={item.to}
                    end={item.exact}
                    aria-current={active ? 'page' : undefined}
                    className={cn(
                      'flex h-9 items-center gap-3 rounded-md px-2 text-sm font-medium transition-colors',
                      active ? 'bg-accent text-primary' : 'text-foreground hover:bg-muted',
                      collapsed && 'justify-center px-0',
                    )}
                  >
                    <Icon className="size-4 shrink-0" aria-hidden="true" />
                    <span className={cn(collapsed && 'sr-only')}>{item.label}</span>
                  </NavLink>
                  {collapsed ? (
                    // A CSS tooltip: shows on hover and keyboard focus, JS or not.
                    <span
                      aria-hidden="true"
                      className="pointer-events-none absolute left-full top-1/2 z-30 ml-2 hidden -translate-y-1/2 whitespace-nowrap rounded-md bg-foreground px-2 py-1 text-xs text-background group-hover/item:block group-focus-within/item:block"
                    >
                      {item.label}
                    </span>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

/** The brand, linking to the signed-in user's home (the dashboard, or an outsider's own page). */
export function SidebarBrand({ collapsed, home = '/dashboard' }: { collapsed: boolean; home?: string }) {
  return (
    <div className={cn('border-b border-border px-4 py-4', collapsed && 'px-0 text-center')}>
      <Link to={home} className="block font-bold tracking-tight" aria-label={collapsed ? BRAND_NAME : undefined}>
        {collapsed ? <span aria-hidden="true">OH</span> : BRAND_NAME}
      </Link>
      {collapsed ? null : <p className="mt-0.5 text-xs text-muted-foreground">{TAGLINE}</p>}
    </div>
  );
}

/**
 * Below 768 px the sidebar is a slide-over, opened by `?menu=open` (a link, so
 * no JS needed). With JavaScript it is a Radix modal dialog: focus moves in,
 * Tab stays inside, Escape and the backdrop close it, and focus goes back to
 * the menu button. Rendered in place (no portal) so the server renders it for
 * `?menu=open` too.
 */
export function MobileSidebar({
  open,
  groups,
  pathname,
  closeTo,
  onClose,
  home,
  opener,
}: {
  open: boolean;
  groups: NavGroup[];
  pathname: string;
  closeTo: string;
  /** Given once hydrated: closing is then done in place, without a navigation. */
  onClose?: () => void;
  home?: string;
  /** The menu button: focus goes back to it, also when the dialog was opened by its URL. */
  opener: () => HTMLElement | null;
}) {
  const focusReturn = useFocusReturn(opener);
  const closeInPlace = (event: React.MouseEvent) => {
    if (!onClose) return;
    event.preventDefault();
    onClose();
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose?.())}>
      {open ? (
        <div className="fixed inset-0 z-40 md:hidden">
          <Dialog.Overlay asChild forceMount>
            <Link to={closeTo} replace onClick={closeInPlace} tabIndex={-1} aria-hidden="true" className="absolute inset-0 bg-black/50" />
          </Dialog.Overlay>
          <Dialog.Content
            forceMount
            {...focusReturn}
            // Named by our own id: Radix links its title only after hydration.
            aria-labelledby="mobile-navigation-title"
            aria-describedby={undefined}
            className="relative flex h-full w-[var(--sidebar-width-mobile)] flex-col bg-background shadow-xl outline-none"
          >
            <Dialog.Title id="mobile-navigation-title" className="sr-only">
              Navigation
            </Dialog.Title>
            <div className="flex items-start justify-between">
              <SidebarBrand collapsed={false} home={home} />
              <Link
                to={closeTo}
                replace
                onClick={closeInPlace}
                className="m-3 rounded-md p-1 text-muted-foreground hover:bg-muted"
                aria-label="Close navigation"
              >
                <X className="size-4" aria-hidden="true" />
              </Link>
            </div>
            <SidebarNav groups={groups} pathname={pathname} collapsed={false} />
          </Dialog.Content>
        </div>
      ) : null}
    </Dialog.Root>
  );
}
