// The seller's logo on a document: checked as an upload is (PNG or JPEG of
// bounded size, by its bytes) before pdf-lib decodes it, and drawn within a
// 160 x 56 pt box above the seller's name. A logo that does not pass is left
// out rather than failing the document.
import type { PDFImage } from 'pdf-lib';
import { inspectLogo } from '../logo-image.ts';
import type { Flow } from './layout.ts';
import type { PdfLogo } from './types.ts';

export const LOGO_BOX = { width: 160, height: 56 } as const;

export async function embedLogo(flow: Flow, logo: PdfLogo | null | undefined): Promise<PDFImage | null> {
  if (!logo) return null;
  const image = inspectLogo(logo.bytes);
  if ('error' in image) return null;
  try {
    return image.kind === 'png' ? await flow.doc.embedPng(logo.bytes) : await flow.doc.embedJpg(logo.bytes);
  } catch {
    return null;
  }
}

/** Draws the logo at (x, top) going down; answers the height used. */
export function drawLogo(flow: Flow, image: PDFImage, x: number, top: number): number {
  const scale = Math.min(LOGO_BOX.width / image.width, LOGO_BOX.height / image.height, 1);
  const width = image.width * scale;
  const height = image.height * scale;
  flow.page.drawImage(image, { x, y: top - height, width, height });
  return height;
}
