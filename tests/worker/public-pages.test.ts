import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';

const ORIGIN = 'http://ops-hub.test';

function get(path: string, headers: HeadersInit = {}) {
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, { headers }));
}

/** The page's HTML without React's text-joining comments, as a reader sees the text. */
async function pageText(response: Response): Promise<string> {
  return (await response.text()).replaceAll('<!-- -->', '');
}

describe('landing page', () => {
  it('shows the hero, the three buttons, six module cards and the footer', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    const html = await pageText(response);
    // The backend is unreachable in this test: the defaults are used.
    expect(html).toContain('OpsHub Pro');
    expect(html).toContain('Operations &amp; Automation Hub — Pro Edition');
    for (const text of ['Start Free Trial', 'Sign In', 'View Pricing']) expect(html).toContain(text);
    expect(html.match(/>Get Started</g)).toHaveLength(6);
    // The real price of each module, as /pricing and the catalogue have it.
    expect(html.match(/\$299<span[^>]*>\/month</g)).toHaveLength(6);
    expect(html).not.toContain('$500');
    expect(html).toContain('hello@opshub.test');
    expect(html).toContain('© 2025 OpsHub Pro');
    expect(html).toContain('href="/pricing"');
    expect(html).toContain('href="/auth"');
  });

  it('says which modules are previews and what the real ones do today', async () => {
    const html = await pageText(await get('/'));
    // Logistics, RFP Radar and Compliance show sample screens: their cards say so.
    expect(html.match(/>Preview</g)).toHaveLength(3);
    expect(html.match(/In preview: its screens show sample data while it is built\./g)).toHaveLength(3);
    expect(html).toContain('Customer mail lands in one shared inbox, threaded');
    expect(html).toContain('A portal where clients sign, pay and download');
    expect(html).toContain('Reviewed fields become invoices, bills or clients');
  });
});

describe('pricing page', () => {
  it('shows the header, the badge, six priced cards, the bundle and three questions', async () => {
    const response = await get('/pricing');
    expect(response.status).toBe(200);
    const html = await pageText(response);
    expect(html).toContain('Simple, Transparent Pricing');
    expect(html).toContain('$299/month per module • Bundle pricing for 2+ modules');
    for (const text of ['Cancel anytime', '24/7 support', 'Regular updates']) expect(html).toContain(text);
    expect(html.match(/Setup fee: \$300/g)).toHaveLength(6);
    expect(html).toContain('$399/month');
    expect(html.match(/<dt /g)).toHaveLength(3);
  });
});

describe('unknown paths', () => {
  it('answer 404 with the spec texts', async () => {
    const response = await get('/no-such-page');
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('Oops! Page not found');
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Return to Home<\/a>/);
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
  });
});

describe('edge cache', () => {
  it('serves anonymous marketing pages as public, and the second request from the cache', async () => {
    const first = await get('/pricing');
    await first.text();
    expect(first.headers.get('Cache-Control')).toBe('public, max-age=0, s-maxage=300, stale-while-revalidate=86400');
    // The put happens in waitUntil; give it a moment to land.
    let second: Response | undefined;
    for (let attempt = 0; attempt < 20; attempt++) {
      second = await get('/pricing');
      await second.text();
      if (second.headers.get('X-Edge-Cache') === 'HIT') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(second?.headers.get('X-Edge-Cache')).toBe('HIT');
    expect(second?.status).toBe(200);
  });

  it('answers every later hit with the same page and headers, HEAD without a body', async () => {
    // The first hit comes from the Cache API, the later ones from the copy this isolate holds.
    let first: Response | undefined;
    for (let attempt = 0; attempt < 20 && first?.headers.get('X-Edge-Cache') !== 'HIT'; attempt++) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 50));
      first = await get('/');
    }
    expect(first?.headers.get('X-Edge-Cache')).toBe('HIT');
    const firstHtml = await first!.text();
    for (let index = 0; index < 3; index++) {
      const again = await get('/');
      expect(again.headers.get('X-Edge-Cache')).toBe('HIT');
      expect(again.headers.get('Content-Security-Policy')).toBe(first!.headers.get('Content-Security-Policy'));
      expect(again.headers.get('Cache-Control')).toBe('public, max-age=0, s-maxage=300, stale-while-revalidate=86400');
      expect(await again.text()).toBe(firstHtml);
    }
    const head = await exports.default.fetch(new Request(`${ORIGIN}/`, { method: 'HEAD' }));
    expect(head.headers.get('X-Edge-Cache')).toBe('HIT');
    expect(await head.text()).toBe('');
  });

  it('never serves or stores the cached copy for a visitor with a session cookie', async () => {
    const warm = await get('/');
    await warm.text();
    const response = await get('/', { Cookie: 'sb-127-auth-token=base64-eyJ4IjoxfQ' });
    await response.text();
    expect(response.headers.get('X-Edge-Cache')).toBe('BYPASS');
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
  });

  it('does not cache a page with a query string', async () => {
    const response = await get('/?utm_source=mail');
    await response.text();
    expect(response.headers.get('X-Edge-Cache')).toBe('BYPASS');
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
  });

  it('keeps pages that need a user private', async () => {
    const response = await get('/settings/website');
    await response.body?.cancel();
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
  });
});

describe('security headers', () => {
  it('sends a nonce-based CSP that the page satisfies, and the other headers', async () => {
    // /auth: its one inline script, the form enhancer (the marketing pages send no scripts at all).
    const response = await get('/auth');
    const html = await response.text();
    const csp = response.headers.get('Content-Security-Policy') ?? '';
    const nonce = /'nonce-([a-f0-9]+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    // Every inline script carries the nonce; none runs without it.
    const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)];
    expect(inlineScripts.length).toBeGreaterThan(0);
    for (const [, attributes] of inlineScripts) expect(attributes).toContain(`nonce="${nonce}"`);
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(response.headers.get('Referrer-Policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('X-Frame-Options')).toBe('DENY');
  });

  it('tells browsers to use https only, on https (a plain-http answer would be ignored by them)', async () => {
    for (const path of ['/auth', '/', '/no-such-page']) {
      const secure = await exports.default.fetch(new Request(`https://ops-hub.test${path}`));
      expect(secure.headers.get('Strict-Transport-Security'), path).toBe('max-age=31536000; includeSubDomains');
    }
    const refused = await exports.default.fetch(new Request('https://ops-hub.test/auth', { method: 'POST', headers: { Origin: 'https://evil.example' } }));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('Strict-Transport-Security')).toBe('max-age=31536000; includeSubDomains');
    expect((await get('/auth')).headers.get('Strict-Transport-Security')).toBeNull();
  });
});
