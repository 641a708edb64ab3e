// A page turned sideways (a receipt scanned across the glass, a phone photo
// taken in landscape) reads as nothing to tesseract, which expects its lines
// upright. Its own orientation detection needs the legacy engine's data,
// which we do not ship (decision 032), so the reading's mean confidence
// decides instead: a page read upright scores 80–95, the same page read a
// quarter-turn off 30–45. Only a poor first reading (< UPRIGHT_CONFIDENCE)
// costs more: the page is read turned a quarter each way (tesseract turns it
// in place, cutting its corners: enough to compare), and if one reads
// clearly better the page is turned whole and read again. Shared by the
// browser's OCR and the extraction bench, each turning images its own way.
// Decision 095.

export const UPRIGHT_CONFIDENCE = 60;
/** How much better a turned reading must score to be believed. */
const CLEARLY_BETTER = 15;
const QUARTER_TURNS = [Math.PI / 2, -Math.PI / 2];

export interface Reading {
  text: string;
  /** tesseract's mean word confidence, 0–100. */
  confidence: number;
}

/** A reading of the page the right way up, and that upright page (to read again in another language). */
export interface UprightReading<Image> extends Reading {
  image: Image;
}

/**
 * The text of `image` read the right way up. `read(image, radians)` reads it
 * turned by `radians` (clockwise); `turn(image, radians)` returns the image
 * turned whole (its sides swapped), clockwise.
 */
export async function readUpright<Image>(
  image: Image,
  read: (image: Image, radians: number) => Promise<Reading>,
  turn: (image: Image, radians: number) => Promise<Image>,
): Promise<UprightReading<Image>> {
  const first = await read(image, 0);
  const asIs = { ...first, image };
  if (first.confidence >= UPRIGHT_CONFIDENCE) return asIs;
  let best = { radians: 0, confidence: first.confidence };
  for (const radians of QUARTER_TURNS) {
    const { confidence } = await read(image, radians);
    if (confidence > best.confidence) best = { radians, confidence };
  }
  if (best.radians === 0 || best.confidence < first.confidence + CLEARLY_BETTER) return asIs;
  const turned = await turn(image, best.radians);
  const upright = await read(turned, 0);
  return upright.confidence > first.confidence ? { ...upright, image: turned } : asIs;
}
