/** The files OCR reads: the images the upload accepts (a PDF scan's pages are not rendered to images here). */
export const OCR_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg'];
