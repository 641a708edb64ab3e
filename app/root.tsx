import { useContext } from 'react';
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, type ShouldRevalidateFunctionArgs } from 'react-router';
import type { Route } from './+types/root';
import { FlashToast } from '~/components/flash-toast';
import { ERROR_TITLE, errorSummary } from '~/lib/error-summary';
import { DocumentNonce } from '~/lib/document-nonce';
import { FORM_ENHANCER } from '~/lib/form-enhancer';
import { OFFLINE, offlineMiddleware, useOfflineStay } from '~/lib/offline';
import { supabaseMiddleware } from '~/lib/supabase.server';
import { pendingToastContext, readToast, toastCookieMiddleware } from '~/lib/toast.server';
import { DEFAULT_DESCRIPTION, usePageHandle } from '~/lib/page-handle';
import { BRAND_NAME, TAGLINE } from '~/lib/site';
import stylesheet from './app.css?url';

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }];

export const meta: Route.MetaFunction = () => [
  { title: `${BRAND_NAME} — ${TAGLINE}` },
];

// Cross-site posts never get this far: the Worker refuses them (csrf.server.ts).
export const middleware: Route.MiddlewareFunction[] = [toastCookieMiddleware, supabaseMiddleware];

// A post that cannot reach the server keeps the page and what was typed (lib/offline.ts).
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [offlineMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  // A toast from this very request's action (a form posted without JavaScript).
  const pending = context.get(pendingToastContext);
  if (pending) return data({ toast: pending });
  // Only a request with a toast cookie gets a Set-Cookie (deleting it):
  // anonymous pages without one stay shareable by the edge cache.
  const { toast, headers } = await readToast(request);
  return data({ toast }, headers ? { headers } : undefined);
}

/**
 * React Router skips revalidation after an action answers 4xx/5xx, but a form
 * error's toast is read by this loader: re-run it (only it) in that case.
 */
export function shouldRevalidate({ actionResult, actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  // Nothing reached the server (lib/offline.ts): nothing to re-read, and no network to read it with.
  if (actionResult === OFFLINE) return false;
  if (actionStatus !== undefined && actionStatus >= 400) return true;
  return defaultShouldRevalidate;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const page = usePageHandle();
  const hydrates = page.hydrate !== false;
  const nonce = useContext(DocumentNonce);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* The one render-blocking request goes first, ahead of <Links />'s module preloads. */}
        <link rel="stylesheet" href={stylesheet} />
        {page.ownDescription ? null : <meta name="description" content={DEFAULT_DESCRIPTION} />}
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen font-sans">
        {children}
        {hydrates ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : page.enhanceForms ? (
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: FORM_ENHANCER }} />
        ) : null}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  useOfflineStay();
  return (
    <>
      <Outlet />
      <FlashToast toast={loaderData.toast} />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { status, detail } = errorSummary(error);
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-2xl font-bold">{ERROR_TITLE}</h1>
      <p className="text-muted-foreground">
        {status} — {detail}
      </p>
      <a href="/" className="text-primary underline">
        Return to Home
      </a>
    </main>
  );
}
