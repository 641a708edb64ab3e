import { useState } from 'react';
import type { ToastMessage } from 'remix-toast';
import { Link } from 'react-router';
import { useClientToast } from '~/lib/client-toast';
import { toastLink } from '~/lib/toast-link';
import { usePageHandle } from '~/lib/page-handle';
import { useHydrated } from '~/lib/use-hydrated';
import { cn } from '~/lib/utils';

const TITLES: Record<ToastMessage['type'], string> = {
  success: 'Success',
  error: 'Error',
  info: 'Notice',
  warning: 'Warning',
};

const STYLES: Record<ToastMessage['type'], string> = {
  success: 'border-green-300 bg-green-50 text-green-900',
  error: 'border-red-300 bg-red-50 text-red-900',
  info: 'border-blue-300 bg-blue-50 text-blue-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
};

/**
 * The one flash toast of this response. Rendered by the server, so it shows
 * without JavaScript and fades out by CSS after about 4.5 s; with JavaScript it
 * can also be dismissed. `description` carries the spec's second line, and
 * `message` its title when a description is given. A toast that links to a
 * record does not fade: a link that vanishes before it can be reached by
 * keyboard or screen reader would be no link at all.
 */
export function FlashToast({ toast: serverToast }: { toast: ToastMessage | undefined }) {
  const [dismissed, setDismissed] = useState<ToastMessage | undefined>();
  const hydrated = useHydrated();
  // A page without the framework: its inline script (form-enhancer.ts) shows and wires the button.
  const enhanced = usePageHandle().enhanceForms === true;
  // One toast at a time: the server's or one raised in the page (client-toast.ts), whichever came last.
  const clientToast = useClientToast();
  // Only which one came last is remembered (adjusted while rendering, as the two change); the toast is the prop itself.
  const [last, setLast] = useState({ server: serverToast, client: clientToast, fromClient: false });
  if (last.server !== serverToast || last.client !== clientToast) {
    setLast({ server: serverToast, client: clientToast, fromClient: last.client !== clientToast });
  }
  const toast = last.fromClient ? clientToast : serverToast;
  if (!toast || dismissed === toast) return null;

  const title = toast.description ? toast.message : TITLES[toast.type];
  const body = toast.description ?? toast.message;
  const link = toastLink(toast);
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4 sm:justify-end">
      <div
        key={`${toast.type}:${toast.message}:${toast.description ?? ''}`}
        role={toast.type === 'error' ? 'alert' : 'status'}
        aria-live={toast.type === 'error' ? 'assertive' : 'polite'}
        data-toast-type={toast.type}
        className={cn(
          link ? null : 'toast-auto-close',
          'pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border p-4 shadow-lg',
          STYLES[toast.type],
        )}
      >
        <div className="flex-1">
          <p className="text-sm font-semibold">{title}</p>
          <p className="mt-1 text-sm">{body}</p>
          {link ? (
            <Link to={link.href} className="mt-2 inline-block text-sm font-medium underline underline-offset-2">
              {link.label}
            </Link>
          ) : null}
        </div>
        {hydrated || enhanced ? (
          <button
            type="button"
            hidden={!hydrated}
            data-dismiss-toast={enhanced || undefined}
            onClick={() => setDismissed(toast)}
            className="rounded p-1 text-sm leading-none opacity-70 hover:opacity-100"
            aria-label="Dismiss notification"
          >
            ×
          </button>
        ) : null}
      </div>
    </div>
  );
}
