// The seller's logo on a public link's page, from our own origin (decision
// 051): /q/:token/logo and /i/:token/logo. The pages' Content-Security-Policy
// allows images from 'self' only, and the token, not an account id, names
// the logo: the database says which logo the link's document may show
// (quote_link_logo / invoice_link_logo, counted by the link's limits), the
// Worker reads it from Storage and hands on only a PNG or JPEG it recognised
// by its bytes, with the type of what it found. Never HTML, never sniffed.
import { readLogo } from './seller-logo.server';

const TYPES = { png: 'image/png', jpeg: 'image/jpeg' } as const;

const COMMON = {
  'X-Content-Type-Options': 'nosniff',
  'X-Robots-Tag': 'noindex, nofollow',
};

/** What the database answered for a token: null (opens nothing), limited, or the logo's path (or none). */
export type LinkLogoAnswer = { limited: true } | { logo_path: string | null } | null;

function refusal(status: 404 | 429 | 503, text: string): Response {
  return new Response(text, {
    status,
    headers: {
      ...COMMON,
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      ...(status === 429 ? { 'Retry-After': '60' } : {}),
    },
  });
}

export const LOGO_REFUSALS = {
  notFound: () => refusal(404, 'No logo'),
  limited: () => refusal(429, 'Too many requests for this link. Try again in a minute.'),
  unavailable: () => refusal(503, 'The logo cannot be read just now. Try again in a moment.'),
};

export async function linkLogoResponse(answer: LinkLogoAnswer): Promise<Response> {
  if (!answer) return LOGO_REFUSALS.notFound();
  if ('limited' in answer) return LOGO_REFUSALS.limited();
  const logo = await readLogo(answer.logo_path);
  if (!logo) return LOGO_REFUSALS.notFound();
  return new Response(logo.bytes, {
    headers: {
      ...COMMON,
      'Content-Type': TYPES[logo.image.kind],
      'Content-Length': String(logo.bytes.length),
      // Kept a few minutes by the client's browser only (the URL is the link's secret);
      // a replaced logo shows within that time.
      'Cache-Control': 'private, max-age=300',
      // Opened on its own it is an image, never a page of our origin; no other site embeds it.
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cross-Origin-Resource-Policy': 'same-origin',
    },
  });
}
