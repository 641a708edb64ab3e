// The sender's name read from a PDF's logo (logo-name.ts, decision 102): an
// OCR reading of the first page, in the page image's pixels, with the boxes
// where the PDF's text layer draws its own text. Shapes as tesseract.js gives
// them; the real pages are measured by the extraction bench.
import { describe, expect, it } from 'vitest';
import type { OcrBlock, OcrBox, OcrLine } from '~/features/documents/ocr/layout-text';
import { logoLanguages, logoName } from '~/features/documents/ocr/logo-name';

const PAGE_HEIGHT = 2100;

/** A line of words at `top`, `height` high; each word [text, x0] or [text, x0, confidence], 12 px a letter. */
function line(top: number, height: number, words: ([string, number] | [string, number, number])[]): OcrLine {
  const boxes = words.map(([text, x0, confidence = 95]) => ({ text, confidence, bbox: { x0, y0: top, x1: x0 + text.length * 12, y1: top + height } }));
  return { words: boxes, bbox: { x0: boxes[0].bbox.x0, y0: top, x1: boxes.at(-1)!.bbox.x1, y1: top + height } };
}
const block = (...lines: OcrLine[]): OcrBlock => ({ paragraphs: [{ lines }] });
/** The text layer's box around a line's words. */
const layerOf = (...lines: OcrLine[]): OcrBox[] => lines.map((l) => ({ ...l.bbox }));

describe('logoName', () => {
  it("keeps the words at the top that the text layer does not draw: a two-row logo beside the layer's own text", () => {
    const number = line(160, 20, [['Numéro', 880], ['de', 980], ['facture', 1020]]);
    const street = line(240, 20, [['12', 90], ['avenue', 120], ['Léonard', 200], ['de', 300], ['Vinci', 330]]);
    const logo = block(line(90, 24, [['DE', 226], ['VINCI', 270]]), line(123, 40, [['FABLAB', 226]]));
    expect(logoName([logo, block(number, street)], layerOf(number, street), PAGE_HEIGHT)).toBe('DE VINCI FABLAB');
  });

  it("takes one column of a row the layer shares ('Kontoauszug 12/2014' beside 'Bank'), and leaves a logo's frame off", () => {
    const title = line(280, 40, [['Kontoauszug', 170], ['12/2014', 330]]);
    const logo = block(line(144, 100, [['|', 1080], ['JK', 1118], ['|', 1300]]), line(273, 55, [['Bank', 1115]]));
    expect(logoName([logo, block(title)], layerOf(title), PAGE_HEIGHT)).toBe('JK Bank');
  });

  it('stops before a tagline under the name: a longer row is not the name', () => {
    const receipt = line(400, 20, [['EDIT', 90], ['SALE', 150], ['TICKET', 210]]);
    const logo = block(
      line(45, 36, [['Florentino', 192]]),
      line(112, 36, [['Moreno', 217]]),
      line(176, 36, [['García', 241]]),
      line(246, 20, [['Fontanería', 33], ['-', 165], ['Calefacción', 180], ['-', 324], ['Aire', 339], ['Acondicionado', 395]]),
    );
    expect(logoName([logo, block(receipt)], layerOf(receipt), PAGE_HEIGHT)).toBe('Florentino Moreno García');
  });

  it("leaves out what tesseract is unsure of (a drawing read as letters) and a row further down", () => {
    const title = line(600, 30, [['INVOICE', 90]]);
    const logo = block(line(90, 30, [['$A', 110, 6], ['Nordlicht', 230]]), line(120, 40, [['Ng', 110, 64], ['Design', 230]]), line(400, 30, [['Studio', 230]]));
    expect(logoName([logo, block(title)], layerOf(title), PAGE_HEIGHT)).toBe('Nordlicht Design');
  });

  it('reads nothing below the top third of the page, nothing the layer covers, and nothing from a scan (no text layer)', () => {
    const low = line(1500, 30, [['Stamp', 100], ['Company', 200]]);
    const covered = line(100, 30, [['Acme', 100], ['GmbH', 170]]);
    expect(logoName([block(low, covered)], layerOf(covered), PAGE_HEIGHT)).toBeNull();
    expect(logoName([block(line(100, 30, [['Acme', 100], ['GmbH', 170]]))], [], PAGE_HEIGHT)).toBeNull();
    expect(logoName(null, layerOf(covered), PAGE_HEIGHT)).toBeNull();
  });

  it('names nothing from specks: a row of marks, or digits alone', () => {
    const title = line(600, 30, [['INVOICE', 90]]);
    expect(logoName([block(line(100, 30, [['~', 100], ['//', 130]]), line(140, 30, [['2024', 100]]))], layerOf(title), PAGE_HEIGHT)).toBeNull();
  });
});

describe('logoLanguages', () => {
  it("reads the logo in the text layer's language, with English; English or an unclear text in English alone", () => {
    expect(logoLanguages('Numéro de facture\nDate de facturation\nMontant total TTC\nMerci pour votre commande')).toBe('fra+eng');
    expect(logoLanguages('Invoice number\nTotal amount due\nThank you for your order')).toBe('eng');
    expect(logoLanguages('')).toBe('eng');
  });
});
