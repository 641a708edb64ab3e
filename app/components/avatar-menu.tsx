import { useEffect, useRef } from 'react';
import { Form, Link, useLocation } from 'react-router';
import { LogOut, User } from '~/components/icons';
import { roleLabel } from '~/lib/roles';

export interface ShellUser {
  firstName: string | null;
  lastName: string | null;
  email: string;
  role: string | null;
}

/** As docs/product-guide.md says: first and last initials, else the first letter of the email, else 'U'. */
export function avatarInitials(user: Pick<ShellUser, 'firstName' | 'lastName' | 'email'>): string {
  const first = user.firstName?.trim().charAt(0) ?? '';
  const last = user.lastName?.trim().charAt(0) ?? '';
  if (first && last) return `${first}${last}`.toUpperCase();
  const emailInitial = user.email.trim().charAt(0);
  return (emailInitial || 'U').toUpperCase();
}

export function fullName(user: Pick<ShellUser, 'firstName' | 'lastName'>): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return name || 'User';
}

/**
 * The avatar menu, a disclosure (<details>): it opens by mouse, keyboard and
 * touch with or without JavaScript, and Sign Out is a POST. With JavaScript
 * it also closes on Escape (focus back on its button), on a click outside
 * and on a navigation. (A Radix dropdown would do the same but put ~20 KB
 * of positioning code on every signed-in page, over the page-weight
 * budget of decision 006.)
 */
export function AvatarMenu({ user }: { user: ShellUser }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();

  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);

  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      const details = menu.current;
      if (details?.open && !details.contains(event.target as Node)) details.open = false;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const details = menu.current;
      if (event.key !== 'Escape' || !details?.open) return;
      details.open = false;
      details.querySelector('summary')?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, []);

  return (
    <details ref={menu} className="group relative">
      <summary
        className="flex size-9 cursor-pointer list-none items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground [&::-webkit-details-marker]:hidden"
        // The name starts with the visible initials (WCAG 2.5.3, label in name).
        aria-label={`${avatarInitials(user)}: account menu for ${fullName(user)}`}
      >
        {avatarInitials(user)}
      </summary>
      <div className="absolute right-0 z-30 mt-2 w-64 rounded-lg border border-border bg-background p-1 shadow-lg">
        <div className="px-3 py-2">
          <p className="truncate text-sm font-semibold">{fullName(user)}</p>
          <p className="truncate text-xs text-muted-foreground">{user.email}</p>
          <p className="mt-1 text-xs text-muted-foreground">{`${roleLabel(user.role ?? 'client')} Account`}</p>
        </div>
        <div className="my-1 h-px bg-border" role="separator" />
        {/* Everyone's own page (name, password, address), whatever their role. */}
        <Link to="/profile" className="flex items-center gap-2 rounded-md px-3 py-2 text-sm hover:bg-muted">
          <User className="size-4" aria-hidden="true" />
          Profile
        </Link>
        <Form method="post" action="/auth">
          <input type="hidden" name="intent" value="signout" />
          <button
            type="submit"
            className="flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm hover:bg-muted"
          >
            <LogOut className="size-4" aria-hidden="true" />
            Sign Out
          </button>
        </Form>
      </div>
    </details>
  );
}
