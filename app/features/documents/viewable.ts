// The files a document's page shows beside its fields (documents/:id/view):
// what a browser renders by itself — a PDF in its viewer, an image.
import { OCR_IMAGE_TYPES } from './ocr/image-types';

export const VIEWABLE_TYPES: readonly string[] = ['application/pdf', ...OCR_IMAGE_TYPES];
