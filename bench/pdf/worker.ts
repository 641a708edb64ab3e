// The benchmark's Worker: renders sample quotes with the product's renderer
// inside workerd. GET /render?lines=N[&signed] answers the PDF and, in
// X-Render-Ms, the render's own time as the Worker's clock saw it;
// GET /noop answers nothing, to measure the round trip alone.
import { quoteContentHash } from '../../app/lib/pdf/index.ts';
import { renderQuotePdf } from '../../app/features/quotes/pdf/quote-layout.ts';
import { sampleQuote, sampleSignature } from '../../tests/support/quote-pdf-samples.ts';

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/noop') return new Response(null, { status: 204 });
    if (url.pathname !== '/render') return new Response('not found', { status: 404 });
    const lines = Number(url.searchParams.get('lines') ?? '1');
    const quote = sampleQuote(lines);
    const input = url.searchParams.has('signed') ? { ...quote, signature: sampleSignature(await quoteContentHash(quote)) } : quote;
    const started = performance.now();
    const bytes = await renderQuotePdf(input);
    const elapsed = performance.now() - started;
    return new Response(bytes, { headers: { 'content-type': 'application/pdf', 'x-render-ms': elapsed.toFixed(3) } });
  },
};
