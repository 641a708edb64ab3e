// The sender's name when a PDF prints it only in its logo (issue 34): an
// image or drawn outlines at the top of the first page, which the PDF's text
// layer does not have ('DE VINCI FABLAB' over a cube, 'JK Bank' between two
// bars, a plumber's name in a framed box). Twelve in a hundred real documents
// of the development set named their sender nowhere else. With a person's
// click the browser draws the first page, reads it by OCR, and keeps only the
// words drawn where the text layer has nothing: what is left at the top of
// the page is the logo's text. Pure: shared by the browser and the bench.

import { layoutRows, type OcrBlock, type OcrBox, type OcrWord } from './layout-text.ts';
import { detectLanguage } from './text-language.ts';

/**
 * tesseract's page segmentation for a logo: sparse text (PSM 11), words found
 * wherever they stand. Read as a page of blocks, a name beside a drawing (De
 * Vinci FabLab's cube) or between two bars (JK Bank's) was taken for part of
 * the drawing and not read at all.
 */
export const LOGO_PAGE_SEGMENTATION = '11';

/** The languages to read a logo with: the text layer's, with English (read-in-language.ts). */
export function logoLanguages(layerText: string): string {
  const language = detectLanguage(layerText);
  return language === null || language === 'eng' ? 'eng' : `${language}+eng`;
}

/** Only the top of the page holds a letterhead's logo. */
const TOP_SHARE = 1 / 3;
/** A word tesseract is less sure of than this is a logo's drawing read as letters. */
const MIN_WORD_CONFIDENCE = 70;
/** How much of a word's box the text layer must cover for the word to be the layer's own. */
const COVERED_SHARE = 0.3;
/** A logo's name runs over a few short rows ('DE VINCI' over 'FABLAB'); a tagline under it is longer. */
const MAX_ROW_WORDS = 3;
const MAX_NAME_WORDS = 5;
/** Words and layer boxes compared at most: a page of specks does not grow the work. */
const MAX_WORDS = 2_000;
const MAX_BOXES = 4_000;

/** The share of `word`'s box that `box` covers. */
function covered(word: OcrBox, box: OcrBox): number {
  const width = Math.min(word.x1, box.x1) - Math.max(word.x0, box.x0);
  const height = Math.min(word.y1, box.y1) - Math.max(word.y0, box.y0);
  if (width <= 0 || height <= 0) return 0;
  return (width * height) / Math.max(1, (word.x1 - word.x0) * (word.y1 - word.y0));
}

/** A word that is drawn only as an image at the page's top, read with some confidence. */
function logoWord(word: OcrWord, layer: readonly OcrBox[], top: number): boolean {
  if (word.bbox.y1 > top || (word.confidence ?? 100) < MIN_WORD_CONFIDENCE) return false;
  return !layer.some((box) => covered(word.bbox, box) >= COVERED_SHARE);
}

/** A row's part with its logo's frame left off ('| JK |' → 'JK'), or null when it names nothing. */
function cell(text: string): string | null {
  const trimmed = text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.)]+$/gu, '').trim();
  const letters = trimmed.replace(/[^\p{L}]/gu, '').length;
  return letters >= 2 && letters >= trimmed.replace(/\s/g, '').length * 0.6 ? trimmed : null;
}

/**
 * The logo's text: the words of `blocks` (an OCR reading of the page, in the
 * page image's pixels) at the page's top that no box of the text layer
 * (`layer`, in the same pixels) covers, as rows top to bottom. The first row
 * and the short rows right under it make the name, up to MAX_NAME_WORDS.
 */
export function logoName(blocks: readonly OcrBlock[] | null | undefined, layer: readonly OcrBox[], pageHeight: number): string | null {
  // A scan has no text layer: every word it prints would count as a logo's.
  if (layer.length === 0) return null;
  const top = pageHeight * TOP_SHARE;
  const boxes = layer.slice(0, MAX_BOXES);
  let seen = 0;
  const kept: OcrBlock[] = (blocks ?? []).map((block) => ({
    paragraphs: block.paragraphs.map((paragraph) => ({
      lines: paragraph.lines.flatMap((line) => {
        const words = line.words.filter((word) => (seen += 1) <= MAX_WORDS && logoWord(word, boxes, top));
        return words.length > 0 ? [{ words, bbox: boundsOf(words) }] : [];
      }),
    })),
  }));
  const name: string[] = [];
  let bottom = 0;
  for (const row of layoutRows(kept)) {
    const cells = row.text.split('\t').map(cell).filter((text): text is string => text !== null);
    if (cells.length === 0) continue;
    const words = cells[0].split(/\s+/);
    if (name.length > 0) {
      // Only a short row right under the name so far goes on with it: a second column, a longer line or a row further
      // down is something else.
      const near = row.top - bottom <= (row.bottom - row.top) * 1.5;
      if (!near || cells.length > 1 || words.length > MAX_ROW_WORDS || name.length + words.length > MAX_NAME_WORDS) break;
    }
    name.push(...words);
    bottom = row.bottom;
  }
  return name.length > 0 && name.length <= MAX_NAME_WORDS ? name.join(' ') : null;
}

function boundsOf(words: readonly OcrWord[]): OcrBox {
  return {
    x0: Math.min(...words.map((word) => word.bbox.x0)),
    y0: Math.min(...words.map((word) => word.bbox.y0)),
    x1: Math.max(...words.map((word) => word.bbox.x1)),
    y1: Math.max(...words.map((word) => word.bbox.y1)),
  };
}
