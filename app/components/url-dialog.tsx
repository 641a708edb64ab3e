import * as React from 'react';
import { Dialog } from 'radix-ui';
import { Link, useLocation, useNavigate } from 'react-router';
import { X } from '~/components/icons';
import { useFocusReturn } from '~/lib/use-focus-return';
import { cn } from '~/lib/utils';

/**
 * A dialog addressable by URL (README, Layout): the page renders it open when its
 * URL parameter is present, so it works without JavaScript; closing is a link
 * back. With JavaScript, Radix adds focus trapping, Escape and outside click.
 * Rendered in place (no portal) so the server can render it too. Closing
 * gives focus back to what opened it (useFocusReturn).
 *
 * The dialog is named and described through our own ids: Radix links its
 * title only after a layout effect, which never runs without JavaScript, and
 * the server-rendered dialog would have no accessible name.
 */
export function UrlDialog({
  open,
  closeTo,
  title,
  description,
  children,
  className,
}: {
  open: boolean;
  closeTo: string;
  title: string;
  description?: string;
  children: React.ReactNode;
  className?: string;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  // The address that opened the dialog: on close, focus goes back to the link that points there.
  const openedAt = React.useRef<string | null>(null);
  const here = `${location.pathname}${location.search}`;
  React.useEffect(() => {
    if (open) openedAt.current = here;
  }, [open, here]);
  const titleId = React.useId();
  const descriptionId = React.useId();
  // When focus did not come from the page (the dialog opened on load), the link that points at the dialog's address.
  const focusReturn = useFocusReturn(() =>
    openedAt.current
      ? ([...document.querySelectorAll<HTMLAnchorElement>('a[href]')].find(
          (link) => `${new URL(link.href).pathname}${new URL(link.href).search}` === openedAt.current,
        ) ?? null)
      : null,
  );
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) navigate(closeTo, { preventScrollReset: true, replace: true });
      }}
    >
      {open ? (
        <>
          <Dialog.Overlay asChild forceMount>
            <Link
              to={closeTo}
              replace
              preventScrollReset
              tabIndex={-1}
              aria-hidden="true"
              className="fixed inset-0 z-40 bg-black/50"
            />
          </Dialog.Overlay>
          <Dialog.Content
            forceMount
            onOpenAutoFocus={(event) => {
              focusReturn.onOpenAutoFocus();
              // A dialog may name the control to start on (a confirmation's Cancel); else Radix's first focusable.
              const start = (event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>('[data-autofocus]');
              if (start) {
                event.preventDefault();
                start.focus();
              }
            }}
            onCloseAutoFocus={focusReturn.onCloseAutoFocus}
            aria-labelledby={titleId}
            aria-describedby={descriptionId}
            className={cn(
              'fixed left-1/2 top-1/2 z-50 grid max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border border-border bg-background p-6 shadow-lg',
              className,
            )}
          >
            <div className="flex items-start justify-between gap-4">
              <div className="grid gap-1">
                <Dialog.Title id={titleId} className="text-lg font-semibold">
                  {title}
                </Dialog.Title>
                {/* A plain paragraph: Dialog.Description would add its own id to aria-describedby after hydration. */}
                <p id={descriptionId} className={description ? 'text-sm text-muted-foreground' : 'sr-only'}>
                  {description ?? title}
                </p>
              </div>
              <Link
                to={closeTo}
                replace
                preventScrollReset
                className="rounded-md p-1 text-muted-foreground hover:bg-muted hover:text-foreground"
                aria-label="Close"
              >
                <X className="size-4" aria-hidden="true" />
              </Link>
            </div>
            {children}
          </Dialog.Content>
        </>
      ) : null}
    </Dialog.Root>
  );
}
