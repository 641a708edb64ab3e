// A small image read poorly is read again at twice its size. Tesseract's
// LSTM models read letters some 20 to 40 pixels high; a phone's screenshot of
// a digital receipt, 198 pixels wide, prints them at 6 to 10, and its first
// reading was noise (mean confidence 31). Read at twice its size it gave the
// shop, the date, the VAT id, the items and the total (confidence 49 to 64;
// bench/README.md, ninth pass). Only a poor reading of a small image is read
// again, and the more confident of the two kept: on the development set every
// image read with confidence 50 or more, or larger than 1,000 pixels on its
// shorter side, read no better (and some worse) enlarged. Shared by the
// browser's OCR and the extraction bench (read-in-language.ts), each
// enlarging images its own way (a canvas there, ImageMagick here).

/** A reading below this mean confidence is tried again enlarged. */
export const ENLARGE_BELOW = 50;
/** Only an image whose shorter side is at most this many pixels. */
const SMALL_SHORT_SIDE = 1_000;
/** How many times its size the image is read at. */
export const ENLARGE_FACTOR = 2;
/** Never past this many pixels once enlarged (a long strip of a receipt: a browser's canvas and tesseract's memory). */
const MAX_ENLARGED_PIXELS = 16_000_000;

/** Whether an image of `width` × `height` pixels is small enough to be read again enlarged. */
export function worthEnlarging(width: number, height: number): boolean {
  const shorter = Math.min(width, height);
  return shorter > 0 && shorter <= SMALL_SHORT_SIDE && width * height * ENLARGE_FACTOR ** 2 <= MAX_ENLARGED_PIXELS;
}
