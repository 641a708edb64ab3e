// A seller's logo for a PDF (decision 045): read from the public-read bucket
// `branding` at the path the document's seller names, bounded as uploads are.
// No logo (or one that cannot be read) leaves the document without one.
import { env } from 'cloudflare:workers';
import { LOGO_LIMITS } from './logo-image';
import type { PdfLogo } from './pdf';
import type { Seller } from './seller';

/** The only shape a stored logo path has (the database's accounts_logo_path_own). */
export const LOGO_PATH = /^[0-9a-f-]{36}\/logo\.(png|jpg)$/;

export function logoUrl(path: string): string {
  return `${env.SUPABASE_URL}/storage/v1/object/public/branding/${path}`;
}

export async function sellerLogo(seller: Pick<Seller, 'logo_path'> | null | undefined): Promise<PdfLogo | null> {
  const path = seller?.logo_path;
  if (!path || !LOGO_PATH.test(path)) return null;
  try {
    const response = await fetch(logoUrl(path));
    if (!response.ok || Number(response.headers.get('Content-Length') ?? 0) > LOGO_LIMITS.maxBytes) {
      await response.body?.cancel();
      return null;
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    return bytes.length > LOGO_LIMITS.maxBytes ? null : { bytes };
  } catch (error) {
    console.error(`seller logo: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
