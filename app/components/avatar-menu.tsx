import { useState } from 'react';
import { DropdownMenu } from 'radix-ui';
import { Form, Link, useLocation, useSubmit } from 'react-router';
import { LogOut, User } from 'lucide-react';
import { roleLabel } from '~/lib/roles';
import { useHydrated } from '~/lib/use-hydrated';

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
 * The avatar menu. Without JavaScript it is a disclosure (<details>), which
 * opens by mouse, keyboard and touch; once hydrated it is a Radix dropdown
 * menu, which also closes on Escape, an outside click and a navigation, and
 * moves through its items by arrow keys. Sign Out is a POST either way.
 */
export function AvatarMenu({ user }: { user: ShellUser }) {
  const hydrated = useHydrated();
  return hydrated ? <DropdownAvatarMenu user={user} /> : <DisclosureAvatarMenu user={user} />;
}

const TRIGGER_CLASSES =
  'flex size-9 cursor-pointer list-none items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground [&::-webkit-details-marker]:hidden';
const PANEL_CLASSES = 'z-30 w-64 rounded-lg border border-border bg-background p-1 shadow-lg';
const ITEM_CLASSES =
  'flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm outline-none hover:bg-muted focus-visible:bg-muted data-[highlighted]:bg-muted';

/** The name starts with the visible initials (WCAG 2.5.3, label in name). */
const triggerLabel = (user: ShellUser) => `${avatarInitials(user)}: account menu for ${fullName(user)}`;

function Identity({ user }: { user: ShellUser }) {
  return (
    <div className="px-3 py-2">
      <p className="truncate text-sm font-semibold">{fullName(user)}</p>
      <p className="truncate text-xs text-muted-foreground">{user.email}</p>
      <p className="mt-1 text-xs text-muted-foreground">{`${roleLabel(user.role ?? 'client')} Account`}</p>
    </div>
  );
}

function DisclosureAvatarMenu({ user }: { user: ShellUser }) {
  return (
    <details className="group relative">
      <summary className={TRIGGER_CLASSES} aria-label={triggerLabel(user)}>
        {avatarInitials(user)}
      </summary>
      <div className={`absolute right-0 mt-2 ${PANEL_CLASSES}`}>
        <Identity user={user} />
        <div className="my-1 h-px bg-border" role="separator" />
        {/* Everyone's own page (name, password, address), whatever their role. */}
        <Link to="/profile" className={ITEM_CLASSES}>
          <User className="size-4" aria-hidden="true" />
          Profile
        </Link>
        <Form method="post" action="/auth">
          <input type="hidden" name="intent" value="signout" />
          <button type="submit" className={ITEM_CLASSES}>
            <LogOut className="size-4" aria-hidden="true" />
            Sign Out
          </button>
        </Form>
      </div>
    </details>
  );
}

function DropdownAvatarMenu({ user }: { user: ShellUser }) {
  const [open, setOpen] = useState(false);
  const submit = useSubmit();
  const location = useLocation();
  // A navigation (a link elsewhere, the browser's back button) closes the menu.
  const [lastPath, setLastPath] = useState(location.pathname);
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname);
    setOpen(false);
  }
  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen} modal={false}>
      <DropdownMenu.Trigger className={TRIGGER_CLASSES} aria-label={triggerLabel(user)}>
        {avatarInitials(user)}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={8} className={PANEL_CLASSES}>
          <DropdownMenu.Label asChild>
            <div>
              <Identity user={user} />
            </div>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <DropdownMenu.Item asChild className={ITEM_CLASSES}>
            <Link to="/profile">
              <User className="size-4" aria-hidden="true" />
              Profile
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className={ITEM_CLASSES}
            onSelect={() => submit({ intent: 'signout' }, { method: 'post', action: '/auth' })}
          >
            <LogOut className="size-4" aria-hidden="true" />
            Sign Out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
