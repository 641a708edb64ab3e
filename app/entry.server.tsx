import { isbot } from 'isbot';
// React's Node build, not the edge build workerd would pick: the edge build
// encodes every string it writes (each attribute, each text) into a new
// Uint8Array, which was a fifth of a signed-in page's render time in the
// Worker; the Node build copies them into one reused buffer (issue 22). Its
// Node imports (stream, util, crypto, async_hooks) are nodejs_compat's.
import { renderToReadableStream } from 'react-dom/server.node';
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router';
import { DocumentNonce } from '~/lib/document-nonce';
import { nonceContext } from '~/lib/request-context';

export const streamTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = loadContext.get(nonceContext);
  let shellRendered = false;
  const body = await renderToReadableStream(
    <DocumentNonce value={nonce}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </DocumentNonce>,
    {
      nonce,
      signal: AbortSignal.timeout(streamTimeout + 1_000),
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors before the shell are reported by React Router itself.
        if (shellRendered) console.error(error);
      },
    },
  );
  shellRendered = true;

  // Crawlers and no-streaming clients get the whole document at once.
  const userAgent = request.headers.get('user-agent');
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) await body.allReady;

  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
