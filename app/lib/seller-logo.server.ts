// A seller's logo as stored (decision 045): read from the public-read bucket
// `branding` at the path the document's seller names, bounded and checked as
// uploads are (a PNG or JPEG by its bytes). For a PDF, and for the public
// pages' same-origin logo route (decision 051). No logo (or one that cannot be
// read or does not pass) leaves the document or page without one.
import { env } from 'cloudflare:workers';
import { inspectLogo, LOGO_LIMITS, type LogoImage } from './logo-image';
import type { PdfLogo } from './pdf';
import type { Seller } from './seller';

/** The only shape a stored logo path has (the database's accounts_logo_path_own). */
export const LOGO_PATH = /^[0-9a-f-]{36}\/logo\.(png|jpg)$/;

export function logoUrl(path: string): string {
  return `${env.SUPABASE_URL}/storage/v1/object/public/branding/${path}`;
}

/** The stored logo's bytes and kind, when it is one: a PNG or JPEG within the upload's limits. */
export async function readLogo(path: string | null | undefined): Promise<{ bytes: Uint8Array<ArrayBuffer>; image: LogoImage } | null> {
  if (!path || !LOGO_PATH.test(path)) return null;
  try {
    const response = await fetch(logoUrl(path));
    if (!response.ok || Number(response.headers.get('Content-Length') ?? 0) > LOGO_LIMITS.maxBytes) {
      await response.body?.cancel();
      return null;
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    const image = inspectLogo(bytes);
    return 'error' in image ? null : { bytes, image };
  } catch (error) {
    console.error(`seller logo: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

export async function sellerLogo(seller: Pick<Seller, 'logo_path'> | null | undefined): Promise<PdfLogo | null> {
  const logo = await readLogo(seller?.logo_path);
  return logo ? { bytes: logo.bytes } : null;
}
