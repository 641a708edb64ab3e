// The sender's name when a PDF prints it only in its logo (issue 34,
// decision 102): an image or drawn outlines at the top of the first page,
// which the PDF's text layer does not have ('DE VINCI FABLAB' over a cube,
// 'JK Bank' between two bars, a plumber's name in a framed box). With a
// person's click the browser draws the first page, reads it by OCR, and keeps
// only the words drawn where the text layer has nothing: what is left at the
// top of the page is the logo's text. Pure: shared by the browser and the bench.

import { companyKey } from '../document-party.ts';
import { cleanName, COMPANY_SUFFIX, namesDocumentKind } from '../extraction/extract-fields.ts';
import { layoutRows, type OcrBlock, type OcrBox, type OcrWord } from './layout-text.ts';
import { detectLanguage, withEnglish } from './text-language.ts';

/**
 * tesseract's page segmentation for a logo: sparse text (PSM 11), words found
 * wherever they stand. Read as a page of blocks, a name beside a drawing (De
 * Vinci FabLab's cube) or between two bars (JK Bank's) was taken for part of
 * the drawing and not read at all.
 */
export const LOGO_PAGE_SEGMENTATION = '11';

/** The page is drawn at 2.5 times its size (180 dpi, as a scan's pages are), its longer side at most MAX_SIDE pixels. */
const LOGO_SCALE = 2.5;
const MAX_SIDE = 4_000;

/** The scale to draw a page of `width` × `height` points at for reading its logo: a poster is not drawn 2.5 times over. */
export function logoScale(width: number, height: number): number {
  return Math.min(LOGO_SCALE, MAX_SIDE / Math.max(width, height, 1));
}

/** The languages to read a logo with: the text layer's, with English (read-in-language.ts). */
export const logoLanguages = (layerText: string): string => withEnglish(detectLanguage(layerText) ?? 'eng');

/** tesseract's parameters for a logo drawn at `scale`: sparse text, and the page's resolution known (not guessed, and said so on the console). */
export const logoParameters = (scale: number) => ({ tessedit_pageseg_mode: LOGO_PAGE_SEGMENTATION, user_defined_dpi: String(Math.round(scale * 72)) });

/** Only the top of the page holds a letterhead's logo. */
const TOP_SHARE = 1 / 3;
/** A word tesseract is less sure of than this is a logo's drawing read as letters. */
const MIN_WORD_CONFIDENCE = 70;
/** How much of a word's box the text layer must cover for the word to be the layer's own. */
const COVERED_SHARE = 0.3;
/**
 * How many of the page's words the text layer must draw for the rest to be
 * images: a scan whose only text is a stamp ('Scanned with …') or a page
 * number would give its first line of text as a logo.
 */
const LAYER_SHARE = 0.5;
/** A logo's name runs over a few short rows ('DE VINCI' over 'FABLAB'); a tagline under it is longer. */
const MAX_ROW_WORDS = 3;
const MAX_NAME_WORDS = 5;
/** Words read at most: a page of specks does not grow the work. */
const MAX_WORDS = 2_000;
/** Boxes are found by bands of the page's height: a word looks only at the boxes of its bands. */
const BAND = 64;
const MAX_BANDS_PER_BOX = 64;

/** The layer's boxes by band, for the share of a word's box they cover (linear in boxes and words). */
function coverageIndex(layer: readonly OcrBox[]) {
  const bands = new Map<number, OcrBox[]>();
  for (const box of layer) {
    const first = Math.floor(box.y0 / BAND);
    const last = Math.min(Math.floor(box.y1 / BAND), first + MAX_BANDS_PER_BOX);
    for (let band = first; band <= last; band += 1) {
      const list = bands.get(band);
      if (list) list.push(box);
      else bands.set(band, [box]);
    }
  }
  /** The share of `word` the layer covers, its boxes' overlaps added (one item a letter covers a word together), at most 1. */
  return (word: OcrBox): number => {
    const area = Math.max(1, (word.x1 - word.x0) * (word.y1 - word.y0));
    const seen = new Set<OcrBox>();
    let covered = 0;
    for (let band = Math.floor(word.y0 / BAND); band <= Math.floor(word.y1 / BAND) && covered < area; band += 1) {
      for (const box of bands.get(band) ?? []) {
        if (seen.has(box)) continue;
        seen.add(box);
        const width = Math.min(word.x1, box.x1) - Math.max(word.x0, box.x0);
        const height = Math.min(word.y1, box.y1) - Math.max(word.y0, box.y0);
        if (width > 0 && height > 0) covered += width * height;
      }
    }
    return Math.min(1, covered / area);
  };
}

/** A row's part with its logo's frame left off ('| JK |' → 'JK'), or null when it names nothing. */
function cell(text: string): string | null {
  const trimmed = text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.)]+$/gu, '').trim();
  const letters = trimmed.replace(/[^\p{L}]/gu, '').length;
  return letters >= 2 && letters >= trimmed.replace(/\s/g, '').length * 0.6 ? trimmed : null;
}

/** A page's text layer: where it draws (in the drawn page's pixels), the drawn page's height, and its text as lines. */
export interface PageLayer {
  boxes: readonly OcrBox[];
  height: number;
  text: string;
}

/**
 * The logo's name: the words of `blocks` (an OCR reading of the page, in the
 * page image's pixels) at the page's top that no box of the text layer
 * covers, as rows top to bottom. The first row and the short rows right under
 * it make the name, up to MAX_NAME_WORDS, cleaned as any party's name is, and
 * the company it stands for when the page's text names it with its legal form
 * (companyOfBrand). Null on a page whose text the layer mostly does not draw
 * (a scan), or when nothing names anyone.
 */
export function logoName(blocks: readonly OcrBlock[] | null | undefined, layer: PageLayer): string | null {
  const top = layer.height * TOP_SHARE;
  const coverage = coverageIndex(layer.boxes);
  let seen = 0;
  let confident = 0;
  let drawn = 0;
  const kept: OcrBlock[] = (blocks ?? []).map((block) => ({
    paragraphs: block.paragraphs.map((paragraph) => ({
      lines: paragraph.lines.flatMap((line) => {
        const words = line.words.filter((word) => {
          if ((seen += 1) > MAX_WORDS || (word.confidence ?? 100) < MIN_WORD_CONFIDENCE || !/[\p{L}\p{N}]/u.test(word.text)) return false;
          confident += 1;
          if (coverage(word.bbox) >= COVERED_SHARE) {
            drawn += 1;
            return false;
          }
          return word.bbox.y1 <= top;
        });
        return words.length > 0 ? [{ words, bbox: boundsOf(words) }] : [];
      }),
    })),
  }));
  if (drawn < confident * LAYER_SHARE) return null;
  const words: string[] = [];
  let bottom = 0;
  for (const row of layoutRows(kept)) {
    const cells = row.text.split('\t').map(cell).filter((text): text is string => text !== null);
    if (cells.length === 0) continue;
    const rowWords = cells[0].split(/\s+/);
    if (words.length > 0) {
      // Only a short row right under the name so far goes on with it: a second column, a longer line or a row further
      // down is something else.
      const near = row.top - bottom <= (row.bottom - row.top) * 1.5;
      if (!near || cells.length > 1 || rowWords.length > MAX_ROW_WORDS || words.length + rowWords.length > MAX_NAME_WORDS) break;
    }
    words.push(...rowWords);
    bottom = row.bottom;
  }
  const found = words.length > 0 && words.length <= MAX_NAME_WORDS ? words.join(' ') : '';
  // A title or a form's heading printed as an image ('NFSe Nota Fiscal de', 'FeRD Rechnung') names nobody.
  const name = found && !namesDocumentKind(found) ? cleanName(found) : null;
  return name === null ? null : companyOfBrand(name, layer.text);
}

/** A legal form's word, capitalised and short ('GmbH', 'AG', 'Ltd.'; not the English 'as' or 'co'). */
const legalForm = (word: string) => /^\p{Lu}/u.test(word) && COMPANY_SUFFIX.test(word) && word.replace(/[^\p{L}]/gu, '').length <= 6;

/** A page's lines looked through at most. */
const MAX_LINES = 400;
/** How many words past the brand a legal form may stand ('Hetzner Online' → 'Hetzner Online GmbH'). */
const WORDS_TO_FORM = 3;

/**
 * The company a logo's brand stands for: a line of the page that prints the
 * brand's words followed, within three words, by a legal form ('HETZNER
 * ONLINE' in the logo, 'Hetzner Online GmbH' in the footer; 'QualityHosting'
 * → 'QualityHosting AG'). The brand itself when no line does.
 */
export function companyOfBrand(brand: string, pageText: string): string {
  // Compared as the records compare companies (lower case, no accents nor legal forms): 'HETZNER ONLINE' is 'Hetzner Online'.
  const key = companyKey(brand);
  const length = key.split(' ').length;
  if (!key) return brand;
  for (const line of pageText.split('\n').slice(0, MAX_LINES)) {
    for (const cell of line.split('\t')) {
      if (!companyKey(cell).includes(key)) continue;
      const words = cell.trim().split(/\s+/);
      for (let start = 0; start + length <= words.length; start += 1) {
        if (companyKey(words.slice(start, start + length).join(' ')) !== key) continue;
        let end = -1;
        for (let at = start + length; at < Math.min(words.length, start + length + WORDS_TO_FORM); at += 1) {
          if (legalForm(words[at])) end = at;
          else if (end >= 0) break;
        }
        // A legal form run on ('Corp Ltd.').
        while (end >= 0 && end + 1 < words.length && legalForm(words[end + 1])) end += 1;
        const company = end >= 0 ? cleanName(words.slice(start, end + 1).join(' ')) : null;
        if (company) return company;
      }
    }
  }
  return brand;
}

function boundsOf(words: readonly OcrWord[]): OcrBox {
  return {
    x0: Math.min(...words.map((word) => word.bbox.x0)),
    y0: Math.min(...words.map((word) => word.bbox.y0)),
    x1: Math.max(...words.map((word) => word.bbox.x1)),
    y1: Math.max(...words.map((word) => word.bbox.y1)),
  };
}
