/** The images OCR reads as they are (the images the upload accepts). */
export const OCR_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg'];

/** The files the browser's OCR reads from /documents/:id/image: images, and PDFs whose pages it draws first (a scan). */
export const OCR_FILE_TYPES: readonly string[] = [...OCR_IMAGE_TYPES, 'application/pdf'];

/**
 * Whether the document page offers OCR, and of what: an image always; a PDF
 * once extraction found no text layer in it (needs_text: a scan).
 */
export function ocrSource(document: { mime_type: string; extraction_status: string | null }): 'image' | 'scan' | null {
  if (OCR_IMAGE_TYPES.includes(document.mime_type)) return 'image';
  if (document.mime_type === 'application/pdf' && document.extraction_status === 'needs_text') return 'scan';
  return null;
}
